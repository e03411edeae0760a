import { describe, expect, it } from 'vitest';
import { MAX_RESET_MS, parseDuration, parseRetryAfter, readResetTime } from './read-reset-time.js';

const now = Date.parse('2026-11-24T10:00:00Z');

describe('readResetTime', () => {
  it('reads retry-after in seconds and as an HTTP date', () => {
    expect(readResetTime({ headers: { 'retry-after': '7' }, body: undefined, now })).toBe(
      now + 7_000,
    );
    const date = 'Tue, 24 Nov 2026 10:01:30 GMT';
    expect(readResetTime({ headers: { 'retry-after': date }, body: undefined, now })).toBe(
      now + 90_000,
    );
  });

  it('takes the latest Anthropic reset among the exhausted limits', () => {
    const headers = {
      'anthropic-ratelimit-requests-remaining': '10',
      'anthropic-ratelimit-requests-reset': '2026-11-24T10:05:00Z',
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-11-24T10:00:20Z',
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': '2026-11-24T10:00:40Z',
    };
    expect(readResetTime({ headers, body: undefined, now })).toBe(now + 40_000);
  });

  it('takes the latest reset when no limit says 0 remaining', () => {
    const headers = {
      'anthropic-ratelimit-requests-reset': '2026-11-24T10:00:05Z',
      'anthropic-ratelimit-tokens-reset': '2026-11-24T10:00:09Z',
    };
    expect(readResetTime({ headers, body: undefined, now })).toBe(now + 9_000);
  });

  it('reads the OpenAI reset durations', () => {
    const headers = {
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '6m0s',
      'x-ratelimit-remaining-tokens': '1200',
      'x-ratelimit-reset-tokens': '20ms',
    };
    expect(readResetTime({ headers, body: undefined, now })).toBe(now + 360_000);
  });

  it('reads Google RetryInfo from the error body', () => {
    const body = {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '19s' },
        ],
      },
    };
    expect(readResetTime({ headers: {}, body, now })).toBe(now + 19_000);
  });

  it('prefers retry-after, and answers null when nothing usable is sent', () => {
    const headers = { 'retry-after': '2', 'x-ratelimit-reset-requests': '1m' };
    expect(readResetTime({ headers, body: undefined, now })).toBe(now + 2_000);
    expect(readResetTime({ headers: {}, body: { error: {} }, now })).toBeNull();
    expect(readResetTime({ headers: { 'retry-after': 'soon-ish 1' }, body: null, now })).toBeNull();
  });

  it('bounds a reset in the past to now and one far away to a day', () => {
    const past = { 'retry-after': 'Tue, 24 Nov 2026 09:00:00 GMT' };
    expect(readResetTime({ headers: past, body: undefined, now })).toBe(now);
    expect(readResetTime({ headers: { 'retry-after': '9999999' }, body: undefined, now })).toBe(
      now + MAX_RESET_MS,
    );
  });
});

describe('parseDuration and parseRetryAfter', () => {
  it.each([
    ['6m0s', 360_000],
    ['1h2m3.5s', 3_723_500],
    ['20ms', 20],
    ['0.5s', 500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('refuses what is not a duration or a date', () => {
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('12')).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBe(now + 1_500);
  });
});
