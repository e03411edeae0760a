import { describe, expect, it } from 'vitest';
import { ConsoleError } from '../console-error.js';
import {
  pairDelayMs,
  SignInFailureLimiter,
  type SignInAttempt,
  type SignInLimits,
  type StartedSignIn,
} from './limit-sign-in-failures.js';

const LIMITS: SignInLimits = {
  freeFailures: 2,
  maxDelaySeconds: 60,
  perUsername: 10,
  perAddress: 6,
  windowSeconds: 900,
};

function limiter(clock: { now: number }) {
  return new SignInFailureLimiter(LIMITS, () => clock.now);
}

/** Starts an attempt: the refusal, or the started attempt (left as a failure unless told). */
function attempt(
  limits: SignInFailureLimiter,
  who: SignInAttempt,
): { refused?: ConsoleError; started?: StartedSignIn } {
  try {
    return { started: limits.start(who) };
  } catch (error) {
    if (error instanceof ConsoleError) return { refused: error };
    throw error;
  }
}

const ann = { username: 'ann', address: '10.0.0.1' };

describe('sign-in failure limiter', () => {
  it('doubles the wait of one (user, address) pair after its free failures, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 8, 20].map((failures) => pairDelayMs(failures, LIMITS))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 60_000, 60_000,
    ]);
    const clock = { now: 1_000_000 };
    const limits = limiter(clock);
    expect(attempt(limits, ann).refused).toBeUndefined();
    expect(attempt(limits, ann).refused).toBeUndefined();
    const third = attempt(limits, ann).refused;
    expect(third?.code).toBe('TOO_MANY_ATTEMPTS');
    expect(third?.statusCode).toBe(429);
    expect(third?.retryAfter).toBe(1);
    clock.now += 1_000;
    expect(attempt(limits, ann).refused).toBeUndefined();
    clock.now += 1_999;
    expect(attempt(limits, ann).refused?.retryAfter).toBe(1);
    clock.now += 1;
    expect(attempt(limits, ann).refused).toBeUndefined();
    expect(attempt(limits, ann).refused?.retryAfter).toBe(4);
  });

  it('lets the same user in from another address while one address waits', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    for (let count = 0; count < 2; count += 1) attempt(limits, ann);
    expect(attempt(limits, ann).refused?.code).toBe('TOO_MANY_ATTEMPTS');
    expect(attempt(limits, { username: 'ann', address: '10.0.0.2' }).refused).toBeUndefined();
  });

  it('holds a per-username ceiling over all addresses, until the window ends', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    for (let count = 0; count < 10; count += 1) {
      expect(attempt(limits, { username: 'ann', address: `10.1.0.${count}` }).refused).toBe(
        undefined,
      );
    }
    const refused = attempt(limits, { username: 'ann', address: '10.2.0.1' }).refused;
    expect(refused?.retryAfter).toBe(900);
    expect(attempt(limits, { username: 'ben', address: '10.2.0.1' }).refused).toBeUndefined();
    clock.now += 900_000;
    expect(attempt(limits, { username: 'ann', address: '10.2.0.1' }).refused).toBeUndefined();
  });

  it('holds a per-address ceiling over all usernames', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    for (let count = 0; count < 6; count += 1) {
      attempt(limits, { username: `user-${count}`, address: '10.0.0.9' });
    }
    expect(attempt(limits, { username: 'fresh', address: '10.0.0.9' }).refused?.code).toBe(
      'TOO_MANY_ATTEMPTS',
    );
    expect(attempt(limits, { username: 'fresh', address: '10.0.0.8' }).refused).toBeUndefined();
  });

  it('counts parallel attempts at once: the pair waits before the first has an answer', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    const outcomes = [0, 1, 2, 3].map(() => attempt(limits, ann));
    expect(outcomes.map((outcome) => outcome.refused === undefined)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('forgets the pair and the attempt on success; an abandoned attempt is not counted', () => {
    const clock = { now: 0 };
    const limits = limiter(clock);
    attempt(limits, ann);
    attempt(limits, ann).started?.succeeded();
    // One failure left: the pair started over, so two more are free.
    attempt(limits, ann);
    attempt(limits, ann).started?.abandoned();
    expect(attempt(limits, ann).refused).toBeUndefined();
    expect(attempt(limits, ann).refused?.code).toBe('TOO_MANY_ATTEMPTS');
    const ceiling = limiter(clock);
    for (let count = 0; count < 20; count += 1) {
      ceiling.start({ username: 'ann', address: `10.3.0.${count}` }).succeeded();
    }
    expect(attempt(ceiling, { username: 'ann', address: '10.3.1.1' }).refused).toBeUndefined();
  });
});
