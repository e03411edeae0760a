import { describe, expect, it } from 'vitest';
import { poolExhaustedError } from './pool-exhausted-error.js';

const now = 1_000_000;

describe('poolExhaustedError', () => {
  it('answers 503 busy when every upstream is at its concurrency limit', () => {
    const error = poolExhaustedError(
      [
        { upstream: 'a', reason: 'Busy', until: null },
        { upstream: 'b', reason: 'Busy', until: null },
      ],
      now,
    );
    expect(error.code).toBe('TG_UPSTREAM_BUSY');
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('answers 429 when the paused ones are rate limited, retry-after = the earliest end', () => {
    const error = poolExhaustedError(
      [
        { upstream: 'a', reason: 'CoolingDown', until: now + 30_500 },
        { upstream: 'b', reason: 'RequestsPerMinute', until: now + 12_001 },
        { upstream: 'c', reason: 'Busy', until: null },
      ],
      now,
    );
    expect(error.code).toBe('TG_UPSTREAMS_RATE_LIMITED');
    expect(error.statusCode).toBe(429);
    expect(error.retryAfterSeconds).toBe(13);
    expect(error.message).not.toContain('a (');
  });

  it('answers 503 unavailable when a circuit is open, at least 1 s', () => {
    const error = poolExhaustedError(
      [
        { upstream: 'a', reason: 'CoolingDown', until: now + 9_000 },
        { upstream: 'b', reason: 'CircuitOpen', until: now - 5 },
      ],
      now,
    );
    expect(error.code).toBe('TG_UPSTREAMS_UNAVAILABLE');
    expect(error.statusCode).toBe(503);
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('answers no upstream when nothing was skipped', () => {
    expect(poolExhaustedError([], now).code).toBe('TG_NO_UPSTREAM');
  });
});
