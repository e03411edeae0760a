import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBedrock, type FakeBedrock } from '../../../test/support/fake-bedrock.js';
import { startFakeSts, type FakeSts } from '../../../test/support/fake-aws-sts.js';
import type { ProviderSettings, ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ProviderCall, UpstreamProvider } from '../../spec/upstream-provider.js';
import { createAwsBedrockProvider } from './create-aws-bedrock-provider.js';

const keys = {
  accessKeyId: 'AKIAFAKEKEY',
  secretAccessKey: 'fake/secret+key',
  sessionToken: 'session-token',
};
const roleARN = 'arn:aws:iam::123456789012:role/tollgate-bedrock';
const folder = mkdtempSync(join(tmpdir(), 'bedrock-'));
const tokenFile = join(folder, 'token');
writeFileSync(tokenFile, 'projected.service.account.token\n');

let bedrock: FakeBedrock;
let sts: FakeSts;

beforeAll(async () => {
  bedrock = await startFakeBedrock({ region: 'eu-central-1', credentials: [keys] });
  sts = await startFakeSts({
    roleARN,
    token: 'projected.service.account.token',
    lifetimeMs: 3_600_000,
    onIssue: (issued) => {
      bedrock.accept(issued);
    },
    delayMs: 50,
  });
});
afterAll(async () => {
  await Promise.all([bedrock.close(), sts.close()]);
});

function upstream(credentials: Extract<ProviderSettings, { kind: 'AWSBedrock' }>['credentials']) {
  const provider: ProviderSettings = {
    kind: 'AWSBedrock',
    region: 'eu-central-1',
    endpoint: bedrock.url,
    credentials,
  };
  return { name: 'bedrock', provider } as unknown as ResolvedUpstream;
}

const staticUpstream = () => upstream({ type: 'AWSAccessKey', ...keys });

function call(stream: boolean, path = '/v1/messages'): ProviderCall {
  return {
    platform: 'Anthropic',
    method: 'POST',
    path,
    headers: { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' },
    body: Buffer.from(
      JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        stream,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ),
    stream,
    model: 'eu.anthropic.claude-sonnet-4-6-v1:0',
  };
}

/** What the forward stage does: prepare, send, then decode or map the error. */
async function send(
  provider: UpstreamProvider,
  input: { call: ProviderCall; upstream: ResolvedUpstream },
) {
  const prepared = await provider.prepare(input.call, input.upstream);
  const response = await request(`${prepared.origin}${prepared.path}`, {
    method: 'POST',
    headers: prepared.headers,
    body: prepared.body,
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([k, v]) => [k, String(v)]),
  );
  if (response.statusCode >= 400) {
    const mapped = provider.mapError?.(input.call, { status: response.statusCode, headers, bytes });
    return { status: mapped?.status ?? 0, text: mapped?.bytes.toString('utf8') ?? '' };
  }
  const decoder = provider.decodeReply(input.call, {
    status: response.statusCode,
    contentType: headers['content-type'] ?? '',
  });
  if (decoder === null) return { status: response.statusCode, text: bytes.toString('utf8') };
  const text = Buffer.concat([decoder.push(bytes), decoder.end()]).toString('utf8');
  return { status: response.statusCode, text, contentType: decoder.contentType };
}

describe('createAwsBedrockProvider against a fake Bedrock', () => {
  const provider = createAwsBedrockProvider({
    clock: () => Date.now(),
    endpoints: { awsSts: null },
  });

  it('invokes with static keys and a session token; the reply is Anthropic JSON', async () => {
    const reply = await send(provider, { call: call(false), upstream: staticUpstream() });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'Hello from Bedrock.' }],
    });
    const seen = bedrock.requests.at(-1);
    expect(seen).toMatchObject({
      operation: 'invoke',
      modelId: 'eu.anthropic.claude-sonnet-4-6-v1:0',
    });
    expect(seen?.body).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['fine-grained-tool-streaming-2025-05-14'],
    });
    expect(seen?.headers['x-amz-security-token']).toBe('session-token');
  });

  it('streams: the event stream comes out as Anthropic SSE', async () => {
    const reply = await send(provider, { call: call(true), upstream: staticUpstream() });
    expect(reply.contentType).toBe('text/event-stream');
    const types = [...reply.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(reply.text).not.toContain('amazon-bedrock-invocationMetrics');
  });

  it('counts tokens with CountTokens', async () => {
    const reply = await send(provider, {
      call: call(false, '/v1/messages/count_tokens'),
      upstream: staticUpstream(),
    });
    expect(JSON.parse(reply.text)).toEqual({ input_tokens: expect.any(Number) as number });
    expect(bedrock.requests.at(-1)).toMatchObject({
      operation: 'count-tokens',
      modelId: 'anthropic.claude-sonnet-4-6-v1:0',
    });
  });

  it('maps throttling to an Anthropic 429 and a wrong secret to 403', async () => {
    bedrock.throttle(1);
    const throttled = await send(provider, { call: call(false), upstream: staticUpstream() });
    expect(throttled.status).toBe(429);
    expect(JSON.parse(throttled.text)).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
    const refusals = bedrock.refusals;
    const wrong = upstream({ type: 'AWSAccessKey', ...keys, secretAccessKey: 'not-the-secret' });
    const refused = await send(provider, { call: call(false), upstream: wrong });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('InvalidSignatureException');
    expect(bedrock.refusals).toBe(refusals + 1);
  });

  it('assumes the role once for concurrent calls and signs with the temporary credentials', async () => {
    const webProvider = createAwsBedrockProvider({
      clock: () => Date.now(),
      endpoints: { awsSts: sts.url },
    });
    const web = upstream({ type: 'AWSWebIdentity', roleARN, tokenFile });
    const replies = await Promise.all(
      [1, 2, 3, 4].map(() => send(webProvider, { call: call(false), upstream: web })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(sts.calls).toBe(1);
    expect(bedrock.requests.at(-1)?.headers['x-amz-security-token']).toBe(
      sts.issued[0]?.sessionToken,
    );
  });
});
