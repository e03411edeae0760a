import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  planNextAttempt,
  retryAfterMs,
  type RetryPolicy,
} from './plan-next-attempt.js';

const policy: RetryPolicy = { maxAttempts: 4, baseMs: 1_000, maxMs: 10_000 };
const now = 1_800_000_000_000;

describe('planNextAttempt', () => {
  it.each([200, 202, 204])('counts HTTP %s as delivered', (statusCode) => {
    expect(planNextAttempt({ result: { statusCode }, attempts: 1, now, policy })).toEqual({
      kind: 'delivered',
    });
  });

  it.each([400, 401, 404, 410])('gives up at once on HTTP %s', (statusCode) => {
    expect(planNextAttempt({ result: { statusCode }, attempts: 1, now, policy }).kind).toBe(
      'failed',
    );
  });

  it.each([408, 429, 500, 503, null])('retries HTTP %s with backoff', (statusCode) => {
    expect(planNextAttempt({ result: { statusCode }, attempts: 2, now, policy })).toEqual({
      kind: 'retry',
      atMs: now + 2_000,
    });
  });

  it('doubles the wait up to the cap and stops after the last attempt', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempts) => backoffMs(attempts, policy))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
    expect(planNextAttempt({ result: { statusCode: 500 }, attempts: 4, now, policy })).toEqual({
      kind: 'failed',
      reason: 'gave up after 4 attempts',
    });
  });

  it('honours a longer Retry-After, in seconds or as a date, within the cap', () => {
    const seconds = { statusCode: 429, retryAfter: '7' };
    expect(planNextAttempt({ result: seconds, attempts: 1, now, policy })).toEqual({
      kind: 'retry',
      atMs: now + 7_000,
    });
    const date = { statusCode: 503, retryAfter: new Date(now + 5_000).toUTCString() };
    expect(planNextAttempt({ result: date, attempts: 1, now, policy })).toEqual({
      kind: 'retry',
      atMs: now + 5_000,
    });
    const long = { statusCode: 503, retryAfter: '3600' };
    expect(planNextAttempt({ result: long, attempts: 1, now, policy })).toEqual({
      kind: 'retry',
      atMs: now + 10_000,
    });
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('retries by default for about an hour: 10 s doubling to a 10 min cap, 12 attempts', () => {
    const dueTimes: number[] = [];
    let at = now;
    for (let attempts = 1; ; attempts++) {
      const next = planNextAttempt({
        result: { statusCode: 503 },
        attempts,
        now: at,
        policy: DEFAULT_RETRY_POLICY,
      });
      if (next.kind !== 'retry') {
        expect(next).toEqual({ kind: 'failed', reason: 'gave up after 12 attempts' });
        break;
      }
      dueTimes.push(next.atMs - at);
      at = next.atMs;
    }
    expect(dueTimes.map((wait) => wait / 1000)).toEqual([
      10, 20, 40, 80, 160, 320, 600, 600, 600, 600, 600,
    ]);
    // The last attempt is due 60 min 30 s after the first.
    expect(at - now).toBe(3_630_000);
  });
});
