/**
 * The whole of local mode in one process, used the way the README walks through it: `kubectl apply
 * -f examples/`, a generated key read from its Secret, calls through the gateway with the official
 * SDK to the fake provider, and the refusals a key holder sees after `kubectl patch`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewaySettings } from '../../../gateway/gateway-config.js';
import { startLocalStack, type LocalStack } from '../../../local/start-local-stack.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { runKubectl } from '../control-plane/control-plane-harness.js';

const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-local-stack-'));
let stack: LocalStack;
let fake: FakeProvider;
let aliceKey: string;

async function kubectl(args: readonly string[]): Promise<string> {
  const result = await runKubectl(stack.local.kubeconfigPath, {
    args,
    cacheDirectory: join(dataDirectory, 'kubectl-cache'),
  });
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function client(): Anthropic {
  return new Anthropic({ apiKey: aliceKey, baseURL: stack.gatewayUrl, maxRetries: 0 });
}

interface Outcome {
  status: number;
  text: string;
}

async function callAsAlice(): Promise<Outcome> {
  try {
    const message = await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const first = message.content[0];
    return { status: 200, text: first?.type === 'text' ? first.text : '' };
  } catch (error) {
    if (error instanceof Anthropic.APIError)
      return { status: Number(error.status), text: error.message };
    throw error;
  }
}

async function patchAlice(patch: object): Promise<void> {
  await kubectl([
    'patch',
    'apikey',
    'alice',
    '-n',
    'team-a',
    '--type',
    'merge',
    '-p',
    JSON.stringify(patch),
  ]);
}

beforeAll(async () => {
  fake = await startFakeProvider({ credential: null, keepRequests: 1_000 });
  stack = await startLocalStack({
    dataDirectory,
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    metricsPort: 0,
    operatorMetricsPort: 0,
    gateway: parseGatewaySettings([], {}),
    logLevel: 'warn',
    usageRefreshMs: 500,
  });
  await kubectl(['apply', '-f', 'examples/']);
  for (const upstream of ['anthropic-sim', 'openai-sim', 'gemini-sim', 'antigravity-sim']) {
    await kubectl([
      'patch',
      'upstream',
      upstream,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { baseURL: fake.url } }),
    ]);
  }
  const encoded = await eventually(
    () =>
      kubectl([
        'get',
        'secret',
        'alice-key',
        '-n',
        'team-a',
        '-o',
        'jsonpath={.data.apiKey}',
      ]).catch(() => ''),
    (value) => value !== '',
  );
  aliceKey = Buffer.from(encoded, 'base64').toString('utf8');
}, 60_000);

afterAll(async () => {
  await stack.close();
  await fake.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('local mode, as the README walks through it', () => {
  it('lists the example keys with their printer columns', async () => {
    const table = await eventually(
      () => kubectl(['get', 'apikeys', '-A']),
      (text) => /alice\s+Alice \(laptop\)\s+anthropic\s+True\s+Active/.test(text),
    );
    expect(table).toMatch(/^NAMESPACE\s+NAME\s+DISPLAY NAME\s+GROUP\s+READY\s+REASON\s+USED\s+AGE/);
    expect(table).toMatch(/paused\s+Paused key\s+antigravity\s+False\s+Suspended/);
    expect(aliceKey).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
  });

  it('answers a generated key through the gateway, streamed and not', async () => {
    const answer = await eventually(callAsAlice, (outcome) => outcome.status === 200);
    expect(answer).toEqual({
      status: 200,
      text: expect.stringContaining('FAKE_OK claude-sonnet-4-6') as string,
    });
    const stream = client().messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream please' }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(fake.requests.at(-1)?.headers['x-api-key']).toBe('sk-ant-placeholder-for-the-simulator');
  });

  it.each([
    ['a suspended key', { spec: { suspend: true } }, 403, 'TG_KEY_SUSPENDED'],
    ['a key without group', { spec: { groupName: null } }, 403, 'TG_KEY_NO_GROUP'],
    [
      'a deny-listed address',
      { spec: { sourceRanges: { deny: ['127.0.0.0/8'] } } },
      403,
      'TG_SOURCE_DENIED',
    ],
  ])('refuses %s in the Anthropic error shape', async (_name, patch, status, code) => {
    await patchAlice(patch);
    const refused = await eventually(callAsAlice, (outcome) => outcome.status === status);
    expect(refused.status).toBe(status);
    expect(refused.text).toContain(code);
    await patchAlice({
      spec: { suspend: false, groupName: 'anthropic', sourceRanges: { deny: ['10.0.0.13'] } },
    });
    expect((await eventually(callAsAlice, (outcome) => outcome.status === 200)).status).toBe(200);
  });

  it('refuses an over-quota key with 429, shows the used USD, and resets on the annotation', async () => {
    // The calls above spent more than this quota: start it from zero with the reset annotation.
    await kubectl([
      'annotate',
      'apikey',
      'alice',
      '-n',
      'team-a',
      'tollgate.dev/reset-quota=before',
    ]);
    await eventually(
      () =>
        kubectl([
          'get',
          'apikey',
          'alice',
          '-n',
          'team-a',
          '-o',
          'jsonpath={.status.lastHandledQuotaReset}',
        ]),
      (token) => token === 'before',
    );
    await patchAlice({ spec: { limits: { quotaUSD: '0.000001' } } });
    const spent = await eventually(callAsAlice, (outcome) => outcome.status === 200);
    expect(spent.status).toBe(200);
    const refused = await eventually(callAsAlice, (outcome) => outcome.status === 429);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('TG_QUOTA_EXHAUSTED');
    // The operator writes the used USD into the status on its own schedule, and calls that were
    // still 200 while the quota patch travelled may land between two reads: read the value and
    // the table together until the table shows the value just read.
    const shown = await eventually(
      async () => ({
        used: await kubectl([
          'get',
          'apikey',
          'alice',
          '-n',
          'team-a',
          '-o',
          'jsonpath={.status.usage.usedUSD}',
        ]),
        table: await kubectl(['get', 'ak', 'alice', '-n', 'team-a']),
      }),
      ({ used, table }) => used !== '' && used !== '0' && table.includes(used),
    );
    expect(Number(shown.used)).toBeGreaterThan(0.000001);
    expect(shown.table).toContain(shown.used);
    await kubectl([
      'annotate',
      'apikey',
      'alice',
      '-n',
      'team-a',
      '--overwrite',
      'tollgate.dev/reset-quota=after',
    ]);
    const reset = await eventually(callAsAlice, (outcome) => outcome.status === 200);
    expect(reset.status).toBe(200);
  });
});
