/**
 * A burst of 200 concurrent requests against a $1.00 quota, on the memory store and on Redis.
 *
 * The bound: admission lets a request in only while used + reserved < quota, and reserves its
 * estimate. Here every estimate is at least the actual cost (same input estimate as the fake's
 * count, and max_tokens 16 >= the 10 output tokens), so at the last admission L, used + the
 * estimates in flight < quota, and what those requests (and L) finally settle is at most their
 * estimates plus L's cost: settled total < quota + the cost of one request.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { estimateRequestCost } from '../../../gateway/billing/estimate-request-cost.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import { buckets, STORE_KINDS, useMeteringGateway } from './metering-harness.js';

const QUOTA_NANO = 1_000_000_000;
const price = {
  input: 1_000_000,
  output: 1_000_000,
  cacheRead: 100_000,
  cacheWrite5m: 1_250_000,
  cacheWrite1h: 2_000_000,
};
const one = { numerator: 1, denominator: 1 };
const body = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'a burst of requests against one quota' }],
});

describe.each(STORE_KINDS)('quota burst on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it('settles at most the quota plus one request when 200 requests race for $1.00', async () => {
    const key = await env.key({
      overrides: {
        limits: { quotaNano: QUOTA_NANO, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      },
      group: { priceOverrides: { 'claude-sonnet-4-5': price } },
    });
    env.fake.setBehaviour({ firstByteDelayMs: 20 });
    const answer = computeFakeAnswer({
      model: 'claude-sonnet-4-5',
      bodyBytes: Buffer.byteLength(body),
      behaviour: {},
    });
    const cost = computeCost(
      buckets({ inputUncached: answer.inputTotal, output: answer.textTokens }),
      price,
      one,
    );
    const estimate = estimateRequestCost({
      bodyBytes: Buffer.byteLength(body),
      outputTokens: 16,
      price,
      multiplier: one,
    });
    expect(estimate).toBeGreaterThanOrEqual(cost);

    const statuses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await request(`${env.base}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key.value },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode === 429) expect(text).toContain('TG_QUOTA_EXHAUSTED');
        return response.statusCode;
      }),
    );
    const succeeded = statuses.filter((status) => status === 200).length;
    expect(succeeded + statuses.filter((status) => status === 429).length).toBe(200);
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(200);

    const records = await env.waitForRecords(key.keyUid, succeeded);
    expect(records).toHaveLength(succeeded);
    expect(records.every((record) => record.status === 200 && record.costNano === cost)).toBe(true);
    const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
    expect(counters.reservedNano).toBe(0);
    expect(counters.usedNano).toBe(succeeded * cost);
    expect(counters.usedNano).toBeLessThan(QUOTA_NANO + cost);
  });
});
