/**
 * Chat Completions metering, on the memory store and on Redis: translated to Responses (usage read
 * from the upstream's Responses bytes, before translation) and passed through natively (usage
 * asked of the upstream when the streaming caller did not ask for it, and its chunk kept from the
 * caller).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealCredential } from '../../../store/seal-credential.js';
import { DEFAULT_FAKE_CREDENTIAL } from '../../../local/simulator/start-fake-provider.js';
import { buckets, STORE_KINDS, useMeteringGateway } from './metering-harness.js';

// gpt-4.1: input 2000, cache read 500, output 8000 nano-USD per token (see exact-cost.test.ts).
const usage = buckets({ inputUncached: 1, cacheRead: 1000, output: 12, reasoning: 5 });
const cost = 1 * 2000 + 1000 * 500 + 12 * 8000;
const chatBody = (stream: boolean) =>
  JSON.stringify({ model: 'gpt-4.1', stream, messages: [{ role: 'user', content: 'hi' }] });

describe.each(STORE_KINDS)('chat completions metering on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it.each([false, true])(
    'bills a translated chat request, stream %s, from the Responses usage',
    async (stream) => {
      const key = await env.key({ platform: 'OpenAI' });
      env.fake.setBehaviour({ cacheReadTokens: 1000, reasoningTokens: 5 });
      const answer = await env.call({
        path: '/v1/chat/completions',
        apiKey: key.value,
        body: chatBody(stream),
        header: 'authorization',
      });
      expect(answer.status).toBe(200);
      expect(env.fake.requests.at(-1)?.path).toBe('/v1/responses');
      const [record] = await env.waitForRecords(key.keyUid, 1);
      expect(record).toMatchObject({ usage, costNano: cost, accuracy: 'exact', stream });
    },
  );

  it('asks a native upstream for usage and keeps the usage chunk from the caller', async () => {
    const name = `openai-native-${randomUUID().slice(0, 6)}`;
    await env.store.putUpstream({
      digest: randomUUID(),
      name,
      platform: 'OpenAI',
      baseURL: env.fake.url,
      sealedCredential: sealCredential(
        env.secrets.credentialKey,
        JSON.stringify({ apiKey: DEFAULT_FAKE_CREDENTIAL }),
      ),
      credentialType: 'APIKey',
      oauth: null,
      maxConcurrent: 0,
      modelOverrides: {},
      chatCompletions: 'Native',
    });
    const key = await env.key({
      platform: 'OpenAI',
      upstreams: [{ name, weight: 1, priority: 0 }],
    });
    env.fake.setBehaviour({ cacheReadTokens: 1000, reasoningTokens: 5 });
    const answer = await env.call({
      path: '/v1/chat/completions',
      apiKey: key.value,
      body: chatBody(true),
      header: 'authorization',
    });
    expect(answer.status).toBe(200);
    const upstreamRequest = env.fake.requests.at(-1);
    expect(upstreamRequest?.path).toBe('/v1/chat/completions');
    expect(upstreamRequest?.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(answer.text).toContain('FAKE_OK gpt-4.1');
    expect(answer.text).toContain('data: [DONE]');
    expect(answer.text).not.toContain('"choices":[]');
    const [record] = await env.waitForRecords(key.keyUid, 1);
    expect(record).toMatchObject({ usage, costNano: cost, accuracy: 'exact', stream: true });
  });
});
