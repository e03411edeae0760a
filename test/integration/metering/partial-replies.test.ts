/**
 * Replies that do not end normally, on the memory store and on Redis: a client that disconnects
 * mid-stream is billed once for what was consumed; an upstream that reports no usage gets an
 * `estimated` record; an upstream that fails mid-stream bills only usage it reported; token counts
 * are free; a model without a price is refused before forwarding, in the caller's protocol.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import { buckets, STORE_KINDS, tableCost, useMeteringGateway } from './metering-harness.js';

const one = { numerator: 1, denominator: 1 };
const messagesBody = (options: { model?: string; stream?: boolean } = {}) =>
  JSON.stringify({
    model: options.model ?? 'claude-sonnet-4-5',
    max_tokens: 256,
    stream: options.stream ?? false,
    messages: [{ role: 'user', content: 'hello there' }],
  });

describe.each(STORE_KINDS)('partial replies on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it('bills a client that disconnects mid-stream once, for what was streamed', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ chunks: 40, chunkGapMs: 40 });
    const body = messagesBody({ stream: true });
    const response = await request(`${env.base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.value },
      body,
    });
    let seen = '';
    for await (const chunk of response.body) {
      seen += (chunk as Buffer).toString('utf8');
      if (seen.includes(' part2')) break;
    }
    response.body.destroy();
    const records = await env.waitForRecords(key.keyUid, 1);
    await delay(300);
    const again = await env.waitForRecords(key.keyUid, 1);
    expect(again).toHaveLength(1);
    const record = records[0]!;
    const full = computeFakeAnswer({
      model: 'claude-sonnet-4-5',
      bodyBytes: Buffer.byteLength(body),
      behaviour: { chunks: 40 },
    });
    expect(record.accuracy).toBe('estimated');
    expect(record.flags).toEqual(expect.arrayContaining(['client-closed', 'output-estimated']));
    expect(record.usage.inputUncached).toBe(full.inputTotal);
    expect(record.usage.output).toBeGreaterThanOrEqual(Math.ceil(' part2'.length / 4));
    expect(record.usage.output).toBeLessThan(full.textTokens);
    expect(record.costNano).toBe(tableCost('claude-sonnet-4-5', record.usage, one));
    expect(record.costNano).toBeGreaterThan(0);
    const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
    expect(counters).toMatchObject({ usedNano: record.costNano, reservedNano: 0 });
    expect(env.fake.requests).toHaveLength(1);
  });

  it('records an estimate when the upstream reports no usage', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ omitUsage: true });
    const body = messagesBody();
    const answer = await env.call({ path: '/v1/messages', apiKey: key.value, body });
    expect(answer.status).toBe(200);
    const [record] = await env.waitForRecords(key.keyUid, 1);
    const usage = buckets({
      inputUncached: Math.ceil(Buffer.byteLength(body) / 4),
      output: Math.ceil('FAKE_OK claude-sonnet-4-5 part1 part2'.length / 4),
    });
    expect(record).toMatchObject({
      accuracy: 'estimated',
      usage,
      costNano: tableCost('claude-sonnet-4-5', usage, one),
      flags: ['usage-estimated'],
    });
  });

  it('bills nothing when the upstream fails mid-stream before reporting usage', async () => {
    const key = await env.key({ platform: 'OpenAI' });
    env.fake.setBehaviour({ chunks: 5, dropAfterChunks: 6 });
    const answer = await env.call({
      path: '/v1/responses',
      apiKey: key.value,
      body: JSON.stringify({ model: 'gpt-4.1', input: 'hi', stream: true }),
      header: 'authorization',
    });
    expect(answer.text).toContain('FAKE_OK');
    expect(answer.text).toContain('TG_UPSTREAM_UNREACHABLE');
    const [record] = await env.waitForRecords(key.keyUid, 1);
    expect(record).toMatchObject({ accuracy: 'none', costNano: 0, usage: buckets({}) });
    expect(record?.flags).toContain('upstream-failed');
    const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
    expect(counters).toMatchObject({ usedNano: 0, reservedNano: 0 });
  });

  it('bills the usage an upstream reported before it failed mid-stream', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ chunks: 5, dropAfterChunks: 5 });
    const body = messagesBody({ stream: true });
    await env.call({ path: '/v1/messages', apiKey: key.value, body });
    const [record] = await env.waitForRecords(key.keyUid, 1);
    expect(record?.accuracy).toBe('estimated');
    expect(record?.flags).toEqual(expect.arrayContaining(['upstream-failed', 'output-estimated']));
    expect(record?.usage.inputUncached).toBe(Math.ceil(Buffer.byteLength(body) / 4));
    expect(record?.costNano).toBe(tableCost('claude-sonnet-4-5', record!.usage, one));
  });

  it('lets token counts through for any model and bills nothing', async () => {
    const key = await env.key();
    const answer = await env.call({
      path: '/v1/messages/count_tokens',
      apiKey: key.value,
      body: JSON.stringify({
        model: 'claude-unknown-9',
        messages: [{ role: 'user', content: 'x' }],
      }),
    });
    expect(answer.status).toBe(200);
    const [record] = await env.waitForRecords(key.keyUid, 1);
    // Flagged as a token count: the ledger lists it as one and counts no request for it.
    expect(record).toMatchObject({ costNano: 0, accuracy: 'none', flags: ['token-count'] });
  });

  it('refuses a model without a price before forwarding, in each protocol', async () => {
    const anthropic = await env.key();
    const refused = await env.call({
      path: '/v1/messages',
      apiKey: anthropic.value,
      body: messagesBody({ model: 'claude-unknown-9' }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    expect(refused.text).toContain('TG_MODEL_NOT_PRICED');
    const openai = await env.key({ platform: 'OpenAI' });
    const openaiRefused = await env.call({
      path: '/v1/responses',
      apiKey: openai.value,
      body: JSON.stringify({ model: 'gpt-unknown', input: 'hi' }),
      header: 'authorization',
    });
    expect(openaiRefused.status).toBe(400);
    expect(JSON.parse(openaiRefused.text)).toMatchObject({
      error: { code: 'TG_MODEL_NOT_PRICED' },
    });
    const gemini = await env.key({ platform: 'Gemini' });
    const geminiRefused = await env.call({
      path: '/v1beta/models/gemini-unknown:generateContent',
      apiKey: gemini.value,
      body: '{"contents":[]}',
      header: 'x-goog-api-key',
    });
    expect(geminiRefused.status).toBe(400);
    expect(JSON.parse(geminiRefused.text)).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT' },
    });
    expect(geminiRefused.text).toContain('TG_MODEL_NOT_PRICED');
    expect(env.fake.requests).toHaveLength(0);
    const counters = await env.store.keyCounters(env.namespace, anthropic.keyUid, Date.now());
    expect(counters).toMatchObject({ usedNano: 0, reservedNano: 0 });
  });

  it('refuses a denied model as denied, and the earlier refusals come first', async () => {
    const denied = await env.key({ overrides: { modelsAllow: ['claude-haiku-*'] } });
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: denied.value,
      body: messagesBody({ model: 'claude-unknown-9' }),
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('TG_MODEL_DENIED');
    const blocked = await env.key({
      overrides: { sourceRanges: { allow: [], deny: ['127.0.0.1/32'] } },
    });
    const fromDenied = await env.call({
      path: '/v1/messages',
      apiKey: blocked.value,
      body: messagesBody({ model: 'claude-unknown-9' }),
    });
    expect(fromDenied.status).toBe(403);
    expect(fromDenied.text).toContain('TG_SOURCE_DENIED');
  });

  it('bills with the group price override and the group fallback price', async () => {
    const price = {
      input: 1000,
      output: 2000,
      cacheRead: 100,
      cacheWrite5m: 1250,
      cacheWrite1h: 2000,
    };
    const fallback = await env.key({ group: { priceFallback: price } });
    const body = messagesBody({ model: 'claude-unknown-9' });
    expect((await env.call({ path: '/v1/messages', apiKey: fallback.value, body })).status).toBe(
      200,
    );
    const [record] = await env.waitForRecords(fallback.keyUid, 1);
    expect(record?.accuracy).toBe('exact');
    expect(record?.priceVersion).toMatch(/group-fallback$/);
    expect(record?.costNano).toBe(computeCost(record!.usage, price, one));

    const override = await env.key({ group: { priceOverrides: { 'claude-sonnet-4-5': price } } });
    await env.call({ path: '/v1/messages', apiKey: override.value, body: messagesBody() });
    const [overridden] = await env.waitForRecords(override.keyUid, 1);
    expect(overridden?.priceVersion).toMatch(/group-override$/);
    expect(overridden?.costNano).toBe(computeCost(overridden!.usage, price, one));
    expect(overridden?.costNano).not.toBe(tableCost('claude-sonnet-4-5', overridden!.usage, one));
  });
});
