/**
 * Usage figures an upstream should never send (1e300 tokens, 1.5 tokens) through the real gateway
 * on every platform, on the memory store and on Redis: the call is still settled exactly once,
 * with the figure clamped or rounded up, the record flagged and marked `estimated`, and the
 * reservation released. Before, 1e300 made cost computation throw and the call was never settled.
 */
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../crds/schema/resources.js';
import { MAX_USAGE_TOKENS } from '../../../gateway/metering/check-usage-invariants.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import { STORE_KINDS, useMeteringGateway, type CallOptions } from './metering-harness.js';

const price = {
  input: 1_000,
  output: 10_000,
  cacheRead: 100,
  cacheWrite5m: 1_250,
  cacheWrite1h: 2_000,
};
const text = 'what does an upstream bill when it cannot count';

interface Route {
  platform: Platform;
  model: string;
  path: string;
  header: NonNullable<CallOptions['header']>;
  body: Record<string, unknown>;
}

const routes: Route[] = [
  {
    platform: 'Anthropic',
    model: 'claude-sonnet-4-5',
    path: '/v1/messages',
    header: 'x-api-key',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: text }],
    },
  },
  {
    platform: 'OpenAI',
    model: 'gpt-5',
    path: '/v1/responses',
    header: 'authorization',
    body: { model: 'gpt-5', input: text, max_output_tokens: 64 },
  },
  {
    platform: 'OpenAI',
    model: 'gpt-5',
    path: '/v1/chat/completions',
    header: 'authorization',
    body: {
      model: 'gpt-5',
      max_completion_tokens: 64,
      messages: [{ role: 'user', content: text }],
    },
  },
  {
    platform: 'Gemini',
    model: 'gemini-2.5-flash',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    header: 'x-goog-api-key',
    body: { contents: [{ role: 'user', parts: [{ text }] }] },
  },
  {
    platform: 'Antigravity',
    model: 'claude-opus-4-6-thinking',
    path: '/antigravity/v1/messages',
    header: 'x-api-key',
    body: {
      model: 'claude-opus-4-6-thinking',
      max_tokens: 64,
      messages: [{ role: 'user', content: text }],
    },
  },
];

describe.each(STORE_KINDS)('untrusted upstream usage on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  describe.each(routes)('$path', (route) => {
    it.each([
      [1e300, MAX_USAGE_TOKENS, 'clamped-output'],
      [1.5, 'ceil', 'fractional-output'],
    ] as const)('settles a reported %s extra output tokens', async (reported, billed, flag) => {
      const key = await env.key({
        platform: route.platform,
        group: { priceOverrides: { [route.model]: price } },
      });
      env.fake.setBehaviour({ reasoningTokens: reported });
      const result = await env.call({
        path: route.path,
        apiKey: key.value,
        body: JSON.stringify(route.body),
        header: route.header,
      });
      expect(result.status).toBe(200);

      const records = await env.waitForRecords(key.keyUid, 1);
      expect(records).toHaveLength(1);
      const record = records[0]!;
      const textTokens = computeFakeAnswer({
        model: route.model,
        bodyBytes: 0,
        behaviour: {},
      }).textTokens;
      const output = billed === 'ceil' ? Math.ceil(textTokens + reported) : billed;
      expect(record).toMatchObject({ requestId: result.requestId, accuracy: 'estimated' });
      expect(record.usage.output).toBe(output);
      expect(record.flags).toEqual(expect.arrayContaining([flag, 'usage-repaired']));
      expect(Number.isSafeInteger(record.costNano)).toBe(true);
      expect(record.costNano).toBeGreaterThanOrEqual(output * price.output);
      const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
      expect(counters).toMatchObject({ reservedNano: 0, usedNano: record.costNano });
    });
  });
});
