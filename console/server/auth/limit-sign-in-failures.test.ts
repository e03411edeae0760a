import { describe, expect, it } from 'vitest';
import { ConsoleError } from '../console-error.js';
import { SignInFailureLimiter } from './limit-sign-in-failures.js';

function limiter(clock: { now: number }) {
  return new SignInFailureLimiter({ perUsername: 3, perAddress: 5, windowSeconds: 60 }, () => {
    return clock.now;
  });
}

function refusal(
  limits: SignInFailureLimiter,
  attempt: { username: string; address: string },
): ConsoleError | undefined {
  try {
    limits.check(attempt);
    return undefined;
  } catch (error) {
    if (error instanceof ConsoleError) return error;
    throw error;
  }
}

describe('sign-in failure limiter', () => {
  it('refuses a username after its failures, with the seconds left in the window', () => {
    const clock = { now: 1_000_000 };
    const limits = limiter(clock);
    const attempt = { username: 'ann', address: '10.0.0.1' };
    for (let count = 0; count < 3; count += 1) {
      expect(refusal(limits, attempt)).toBeUndefined();
      limits.recordFailure(attempt);
    }
    clock.now += 20_000;
    const refused = refusal(limits, attempt);
    expect(refused?.code).toBe('TOO_MANY_ATTEMPTS');
    expect(refused?.statusCode).toBe(429);
    expect(refused?.retryAfter).toBe(40);
    expect(refusal(limits, { username: 'ben', address: '10.0.0.1' })).toBeUndefined();
  });

  it('opens again when the window ends', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    const attempt = { username: 'ann', address: '10.0.0.1' };
    for (let count = 0; count < 3; count += 1) limits.recordFailure(attempt);
    clock.now += 59_999;
    expect(refusal(limits, attempt)?.retryAfter).toBe(1);
    clock.now += 1;
    expect(refusal(limits, attempt)).toBeUndefined();
  });

  it('refuses an address after failures across usernames', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    for (let count = 0; count < 5; count += 1) {
      limits.recordFailure({ username: `user-${count}`, address: '10.0.0.9' });
    }
    const refused = refusal(limits, { username: 'fresh', address: '10.0.0.9' });
    expect(refused?.code).toBe('TOO_MANY_ATTEMPTS');
    expect(refusal(limits, { username: 'fresh', address: '10.0.0.8' })).toBeUndefined();
  });

  it("clears the username's counter on success, not the address's", () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    const attempt = { username: 'ann', address: '10.0.0.1' };
    for (let count = 0; count < 2; count += 1) limits.recordFailure(attempt);
    limits.recordSuccess('ann');
    limits.recordFailure(attempt);
    limits.recordFailure(attempt);
    expect(refusal(limits, attempt)).toBeUndefined();
    limits.recordFailure(attempt);
    // The address has 5 failures now, the username 3.
    expect(refusal(limits, { username: 'other', address: '10.0.0.1' })?.code).toBe(
      'TOO_MANY_ATTEMPTS',
    );
  });
});
