/**
 * Exact cost through the real gateway to the real fake provider, on the memory store and on Redis:
 * known usage (cache reads, both cache-write durations, reasoning) on Anthropic, OpenAI Responses
 * and Gemini, streamed and not; the record fields; daily aggregates equal the sum of the records;
 * the metering metrics.
 */
import { describe, expect, it } from 'vitest';
import {
  buckets,
  STORE_KINDS,
  useMeteringGateway,
  type MeteringEnvironment,
} from './metering-harness.js';

const anthropicCache = { cacheReadTokens: 2000, cacheWrite5mTokens: 300, cacheWrite1hTokens: 400 };
// claude-sonnet-4-5 in nano-USD per token: input 3000, cache read 300, 5m write 3750, 1h write
// 6000, output 15000. Input total 2701 (cached + 1), so 1 uncached; output "FAKE_OK
// claude-sonnet-4-5 part1 part2" = 37 chars = 10 tokens.
const anthropicUsage = buckets({
  inputUncached: 1,
  cacheRead: 2000,
  cacheWrite5m: 300,
  cacheWrite1h: 400,
  output: 10,
});
const anthropicCost = 1 * 3000 + 2000 * 300 + 300 * 3750 + 400 * 6000 + 10 * 15000;

// gpt-4.1: input 2000, cache read 500, output 8000. Input total 1001, 1000 cached; output
// "FAKE_OK gpt-4.1 part1 part2" = 27 chars = 7 tokens + 5 reasoning.
const responsesUsage = buckets({ inputUncached: 1, cacheRead: 1000, output: 12, reasoning: 5 });
const responsesCost = 1 * 2000 + 1000 * 500 + 12 * 8000;

// gemini-2.5-flash: input 300, cache read 30, output 2500. Prompt 1001 with 1000 cached; output
// "FAKE_OK gemini-2.5-flash part1 part2" = 36 chars = 9 tokens + 4 thoughts.
const geminiUsage = buckets({ inputUncached: 1, cacheRead: 1000, output: 13, reasoning: 4 });
const geminiCost = 1 * 300 + 1000 * 30 + 13 * 2500;

const anthropicBody = (stream: boolean) =>
  JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });
const responsesBody = (stream: boolean) =>
  JSON.stringify({ model: 'gpt-4.1', input: 'hi', stream, max_output_tokens: 64 });
const geminiBody = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

async function onlyRecord(env: MeteringEnvironment, keyUid: string, requestId: string) {
  const records = await env.waitForRecords(keyUid, 1);
  expect(records).toHaveLength(1);
  expect(records[0]?.requestId).toBe(requestId);
  return records[0]!;
}

describe.each(STORE_KINDS)('exact cost on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it.each([false, true])(
    'Anthropic Messages, stream %s, with both cache-write TTLs',
    async (stream) => {
      const key = await env.key({
        group: { multiplier: { numerator: 3, denominator: 2 }, multiplierText: '1.5' },
      });
      env.fake.setBehaviour(anthropicCache);
      const answer = await env.call({
        path: '/v1/messages',
        apiKey: key.value,
        body: anthropicBody(stream),
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('FAKE_OK claude-sonnet-4-5');
      const record = await onlyRecord(env, key.keyUid, answer.requestId);
      expect(record).toMatchObject({
        model: 'claude-sonnet-4-5',
        upstreamModel: 'claude-sonnet-4-5',
        usage: anthropicUsage,
        costNano: (anthropicCost * 3) / 2,
        multiplier: '1.5',
        accuracy: 'exact',
        stream,
        status: 200,
        platform: 'Anthropic',
        group: 'anthropic-group',
        upstream: 'anthropic-upstream',
        flags: [],
      });
      expect(record.priceVersion).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
      expect(record.timeToFirstByteMs).toBeGreaterThanOrEqual(0);
      const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
      expect(counters).toMatchObject({ usedNano: (anthropicCost * 3) / 2, reservedNano: 0 });
    },
  );

  it.each([false, true])(
    'OpenAI Responses, stream %s, with cache reads and reasoning',
    async (stream) => {
      const key = await env.key({ platform: 'OpenAI' });
      env.fake.setBehaviour({ cacheReadTokens: 1000, reasoningTokens: 5 });
      const answer = await env.call({
        path: '/v1/responses',
        apiKey: key.value,
        body: responsesBody(stream),
        header: 'authorization',
      });
      expect(answer.status).toBe(200);
      const record = await onlyRecord(env, key.keyUid, answer.requestId);
      expect(record).toMatchObject({
        usage: responsesUsage,
        costNano: responsesCost,
        accuracy: 'exact',
        stream,
        multiplier: '1',
      });
    },
  );

  it.each([
    { method: 'generateContent', query: '', stream: false },
    { method: 'streamGenerateContent', query: '?alt=sse', stream: true },
    { method: 'streamGenerateContent', query: '', stream: true },
  ])(
    'Gemini $method$query, with cached content and thoughts',
    async ({ method, query, stream }) => {
      const key = await env.key({ platform: 'Gemini' });
      env.fake.setBehaviour({ cacheReadTokens: 1000, reasoningTokens: 4 });
      const answer = await env.call({
        path: `/v1beta/models/gemini-2.5-flash:${method}${query}`,
        apiKey: key.value,
        body: geminiBody,
        header: 'x-goog-api-key',
      });
      expect(answer.status).toBe(200);
      const record = await onlyRecord(env, key.keyUid, answer.requestId);
      expect(record).toMatchObject({
        model: 'gemini-2.5-flash',
        usage: geminiUsage,
        costNano: geminiCost,
        accuracy: 'exact',
        stream,
      });
    },
  );

  it('keeps the key and account counters equal to the sum of the records', async () => {
    const key = await env.key();
    const sizes = [1, 2, 3];
    for (const chunks of sizes) {
      env.fake.setBehaviour({ chunks, cacheReadTokens: 100 * chunks });
      const answer = await env.call({
        path: '/v1/messages',
        apiKey: key.value,
        body: anthropicBody(chunks > 1),
      });
      expect(answer.status).toBe(200);
    }
    const records = await env.waitForRecords(key.keyUid, sizes.length);
    expect(records).toHaveLength(sizes.length);
    // The rollups are the ledger's (test/integration/ledger); here the counters match the records.
    const keyCost = records.reduce((total, record) => total + record.costNano, 0);
    expect(records.reduce((total, record) => total + record.usage.cacheRead, 0)).toBe(600);
    const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
    expect(counters.usedNano).toBe(keyCost);
    const all = await env.store.pendingUsageRecords(env.namespace, 10_000);
    const account = await env.store.accountCounters(env.namespace);
    expect(account.spentNano).toBe(all.reduce((total, record) => total + record.costNano, 0));
  });

  it('exports request, token and cost counters by platform, group, model and status class', async () => {
    const key = await env.key({ platform: 'OpenAI' });
    env.fake.setBehaviour({ cacheReadTokens: 1000, reasoningTokens: 5 });
    const answer = await env.call({
      path: '/v1/responses',
      apiKey: key.value,
      body: responsesBody(false),
      header: 'authorization',
    });
    await env.waitForRecords(key.keyUid, 1);
    const text = await env.registry.metrics();
    const labels = 'platform="OpenAI",group="openai-group",model="gpt-4.1",status_class="2xx"';
    expect(answer.status).toBe(200);
    expect(text).toMatch(
      new RegExp(`tollgate_settled_requests_total\\{${labels},accuracy="exact"\\} [1-9]`),
    );
    expect(text).toMatch(
      new RegExp(`tollgate_tokens_total\\{${labels},bucket="cacheRead"\\} [1-9]\\d{3}`),
    );
    expect(text).toMatch(
      new RegExp(`tollgate_tokens_total\\{${labels},bucket="reasoning"\\} [1-9]`),
    );
    expect(text).toMatch(new RegExp(`tollgate_cost_usd_total\\{${labels}\\} 0\\.00\\d+`));
    expect(text).toMatch(
      new RegExp(`tollgate_settled_request_duration_seconds_count\\{${labels}\\} [1-9]`),
    );
    expect(text).toMatch(
      new RegExp(`tollgate_settled_time_to_first_byte_seconds_count\\{${labels}\\} [1-9]`),
    );
    expect(text).not.toContain('sk-tg-');
    expect(text).not.toContain(key.keyUid);
  });
});
