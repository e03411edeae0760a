/**
 * The real Codex CLI (pinned in test/clients/package.json) through a session long enough to
 * compact, against the gateway (Redis store) in front of the simulator: a low
 * `model_auto_compact_token_limit` makes Codex compact before each later turn.
 *
 * - Remote compaction: Codex compacts on the server only for a provider it believes is OpenAI or
 *   Azure (`name = "azure"` for a custom provider). The pinned version then sends the v2 form, a
 *   `/v1/responses` whose input ends with `compaction_trigger` (it never calls
 *   `/v1/responses/compact`); the simulator answers one `compaction` item, and the next turn
 *   carries that item as its history.
 * - Local compaction: with any other provider name (the console's generated configuration), Codex
 *   summarises by itself with an ordinary `/v1/responses` call.
 *
 * Either way the session goes on after the compaction, and every call is billed once: one usage
 * record per call that reached the gateway, and the key's spend is their sum.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RecordedRequest } from '../../../local/simulator/fake-behaviour.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import {
  clientBinFolder,
  CLIENTS_INSTALL_TIMEOUT_MS,
  ensureTestClients,
} from '../../support/install-test-clients.js';

const namespace = 'team-codex';
const secrets = newSecrets();
const folders: string[] = [];
let store: Store;
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
/** Every call that reached the gateway: method and path. */
const calls: string[] = [];
/** The request id of each call whose input ended with `compaction_trigger`, as admitted. */
const compactionCalls: string[] = [];

beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  store = await openStore('redis', inject('redisUrl'));
  closers.push(() => store.close());
  fake = await startFakeProvider({ keepRequests: 1_000 });
  closers.push(() => fake.close());
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets);
  closers.push(() => app.close());
  app.addHook('onRequest', async (request) => {
    await Promise.resolve();
    calls.push(`${request.method} ${request.url}`);
  });
  app.addHook('onResponse', async (request) => {
    await Promise.resolve();
    const input = (request.tollgate.admitted?.context.json as { input?: unknown } | undefined)
      ?.input;
    const last: unknown = Array.isArray(input) ? input.at(-1) : undefined;
    if ((last as { type?: unknown } | undefined)?.type === 'compaction_trigger') {
      compactionCalls.push(request.tollgate.requestId);
    }
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

/** Each started part's close, in reverse order (a failed install leaves none to close). */
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A HOME with `~/.codex/config.toml` for a provider of this name at the gateway. */
function codexHome(providerName: string): string {
  const home = mkdtempSync(join(tmpdir(), 'tollgate-codex-compaction-'));
  folders.push(home);
  mkdirSync(join(home, '.codex'));
  mkdirSync(join(home, 'work'));
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "tollgate"',
      'model_auto_compact_token_limit = 1000',
      '[analytics]',
      'enabled = false',
      '[features]',
      'plugins = false',
      '[model_providers.tollgate]',
      `name = "${providerName}"`,
      `base_url = "${base}/v1"`,
      'wire_api = "responses"',
      'env_key = "TOLLGATE_API_KEY"',
      '',
    ].join('\n'),
  );
  return home;
}

function codex(
  home: string,
  options: { key: string; args: string[] },
): Promise<{ code: number; output: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: home, TOLLGATE_API_KEY: options.key };
  return new Promise((resolve) => {
    const child = execFile(
      join(clientBinFolder, 'codex'),
      ['exec', '--skip-git-repo-check', ...options.args],
      { cwd: join(home, 'work'), env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

/** A first turn, then two resumed turns of the same session; each must answer and exit 0. */
async function session(home: string, key: string): Promise<void> {
  const turns = [
    ['first turn'],
    ['resume', '--last', 'second turn'],
    ['resume', '--last', 'third'],
  ];
  for (const args of turns) {
    const result = await codex(home, { key, args });
    expect(result.output).toContain('FAKE_OK gpt-5.5');
    expect(result.code, result.output).toBe(0);
  }
}

function inputOf(request: RecordedRequest): { type?: string; role?: string }[] {
  const input = (request.body as { input?: unknown } | null)?.input;
  return Array.isArray(input) ? (input as { type?: string; role?: string }[]) : [];
}

/** The key's records once as many as the calls have settled, and its spend. */
async function billing(keyUid: string, expected: number) {
  for (let attempt = 0; ; attempt++) {
    const records = (await store.pendingUsageRecords(namespace, 10_000)).filter(
      (record) => record.keyUid === keyUid,
    );
    if (records.length >= expected || attempt > 200) {
      const counters = await store.keyCounters(namespace, keyUid, Date.now());
      return { records, usedNano: counters.usedNano };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Codex CLI through a session that compacts', () => {
  it('remote compaction (v2): the trigger reaches the upstream, the session goes on, each call billed once', async () => {
    const key = await createKey(store, secrets, { platform: 'OpenAI', namespace });
    calls.length = 0;
    compactionCalls.length = 0;
    fake.reset();
    await session(codexHome('azure'), key.value);

    const upstream = fake.requests.filter((request) => request.path === '/v1/responses');
    expect(upstream).toHaveLength(fake.requests.length);
    const compactions = upstream.filter(
      (request) => inputOf(request).at(-1)?.type === 'compaction_trigger',
    );
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    // The turn after a compaction carries the simulator's compaction item as its history.
    const first = upstream.indexOf(compactions[0] as RecordedRequest);
    const after = upstream[first + 1];
    expect(after).toBeDefined();
    expect(inputOf(after as RecordedRequest).some((item) => item.type === 'compaction')).toBe(true);
    expect(calls.every((call) => call === 'POST /v1/responses')).toBe(true);
    expect(calls).toHaveLength(upstream.length);

    const { records, usedNano } = await billing(key.policy.keyUid, calls.length);
    expect(records).toHaveLength(calls.length);
    expect(new Set(records.map((record) => record.requestId)).size).toBe(records.length);
    // Each compaction the upstream saw is one admitted call with its own record.
    expect(compactionCalls).toHaveLength(compactions.length);
    for (const requestId of compactionCalls) {
      expect(records.filter((record) => record.requestId === requestId)).toHaveLength(1);
    }
    for (const record of records) {
      expect(record).toMatchObject({ status: 200, stream: true, accuracy: 'exact' });
      expect(record.costNano).toBeGreaterThan(0);
    }
    expect(usedNano).toBe(records.reduce((sum, record) => sum + record.costNano, 0));
  }, 400_000);

  it('local compaction (any other provider name): an ordinary call, billed like the others', async () => {
    const key = await createKey(store, secrets, { platform: 'OpenAI', namespace });
    calls.length = 0;
    fake.reset();
    await session(codexHome('Tollgate'), key.value);

    const upstream = fake.requests;
    expect(upstream.some((request) => inputOf(request).at(-1)?.type === 'compaction_trigger')).toBe(
      false,
    );
    const summaries = upstream.filter((request) =>
      JSON.stringify(inputOf(request).at(-1) ?? {}).includes('CONTEXT CHECKPOINT COMPACTION'),
    );
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const { records, usedNano } = await billing(key.policy.keyUid, calls.length);
    expect(calls.length).toBe(upstream.length);
    expect(records).toHaveLength(calls.length);
    expect(usedNano).toBe(records.reduce((sum, record) => sum + record.costNano, 0));
  }, 400_000);
});
