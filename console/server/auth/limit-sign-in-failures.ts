/**
 * Failed sign-ins, counted per username and per client address in a fixed window: past the limit a
 * sign-in is refused with 429 and the seconds until the window ends, before the password is checked.
 * Counters live in the console process (per replica).
 */
import { ConsoleError } from '../console-error.js';

export interface SignInLimits {
  perUsername: number;
  perAddress: number;
  windowSeconds: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class SignInFailureLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window !== undefined && window.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Throws 429 when either counter is exhausted. */
  check(attempt: { username: string; address: string }): void {
    const checks: [string, number][] = [
      [`u:${attempt.username}`, this.limits.perUsername],
      [`a:${attempt.address}`, this.limits.perAddress],
    ];
    for (const [key, limit] of checks) {
      const window = this.current(key);
      if (window !== undefined && window.count >= limit) {
        const retryAfter = Math.max(1, Math.ceil((window.resetAt - this.now()) / 1000));
        throw new ConsoleError(
          'TOO_MANY_ATTEMPTS',
          `Too many failed sign-ins; try again in ${retryAfter} seconds.`,
          { retryAfter },
        );
      }
    }
  }

  recordFailure(attempt: { username: string; address: string }): void {
    if (this.windows.size > 100_000) this.prune();
    for (const key of [`u:${attempt.username}`, `a:${attempt.address}`]) {
      const window = this.current(key);
      if (window === undefined) {
        this.windows.set(key, { count: 1, resetAt: this.now() + this.limits.windowSeconds * 1000 });
      } else window.count += 1;
    }
  }

  /** A success clears the username's counter (not the address's). */
  recordSuccess(username: string): void {
    this.windows.delete(`u:${username}`);
  }

  private prune(): void {
    for (const key of [...this.windows.keys()]) this.current(key);
  }
}
