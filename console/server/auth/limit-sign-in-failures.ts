/**
 * Failed sign-ins. Each (username, client address) pair has its first few failures free, then
 * every failure doubles the wait before that pair may try again, so guessing one password from
 * one place slows to a crawl while the same user signs in from anywhere else. Two ceilings, far
 * higher, stop guesses spread over many addresses (per username) or many usernames (per address)
 * in a fixed window. Refusals are 429 with the seconds to wait, before the password is checked.
 *
 * An attempt is counted as a failure when it starts (so parallel guesses from one pair meet the
 * wait at once) and taken back when it succeeds or fails for another reason than the password.
 * Counters live in the console process (per replica).
 */
import { ConsoleError } from '../console-error.js';

export interface SignInLimits {
  /** Failures of one (username, address) pair before the wait starts. */
  freeFailures: number;
  maxDelaySeconds: number;
  /** Ceiling per username over all addresses in the window. */
  perUsername: number;
  /** Ceiling per address over all usernames in the window. */
  perAddress: number;
  windowSeconds: number;
}

export interface SignInAttempt {
  username: string;
  address: string;
}

/** What a started attempt is told when its outcome is known. */
export interface StartedSignIn {
  /** The password was right: the pair starts over and the attempt is not a failure. */
  succeeded(): void;
  /** The attempt could not be judged (e.g. Kubernetes unreachable): it is not counted. */
  abandoned(): void;
}

interface Count {
  count: number;
  resetAt: number;
}

interface Pair {
  failures: number;
  lastAt: number;
  resetAt: number;
}

/** Milliseconds a pair with `failures` failures waits after its last one. */
export function pairDelayMs(failures: number, limits: SignInLimits): number {
  const over = failures - limits.freeFailures;
  if (over < 0) return 0;
  return Math.min(1000 * 2 ** over, limits.maxDelaySeconds * 1000);
}

export class SignInFailureLimiter {
  private readonly counts = new Map<string, Count>();
  private readonly pairs = new Map<string, Pair>();

  constructor(
    private readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when the pair must wait or a ceiling is reached; else counts the attempt. */
  start(attempt: SignInAttempt): StartedSignIn {
    const now = this.now();
    const ceilings = this.ceilingKeys(attempt);
    for (const [key, limit] of ceilings) {
      const count = this.liveCount(key, now);
      if (count !== undefined && count.count >= limit) throw refusal(count.resetAt - now);
    }
    const pairKey = JSON.stringify([attempt.username, attempt.address]);
    const pair = this.livePair(pairKey, now);
    if (pair !== undefined) {
      const until = pair.lastAt + pairDelayMs(pair.failures, this.limits);
      if (until > now) throw refusal(until - now);
    }
    if (this.counts.size + this.pairs.size > 100_000) this.prune(now);
    const window = this.limits.windowSeconds * 1000;
    for (const [key] of ceilings) {
      const count = this.liveCount(key, now);
      if (count === undefined) this.counts.set(key, { count: 1, resetAt: now + window });
      else count.count += 1;
    }
    const counted = pair ?? { failures: 0, lastAt: now, resetAt: now };
    counted.failures += 1;
    counted.lastAt = now;
    counted.resetAt = now + window;
    this.pairs.set(pairKey, counted);
    let settled = false;
    const takeBack = (clearPair: boolean) => {
      if (settled) return;
      settled = true;
      for (const [key] of ceilings) {
        const count = this.counts.get(key);
        if (count !== undefined) count.count = Math.max(0, count.count - 1);
      }
      if (clearPair) this.pairs.delete(pairKey);
      else counted.failures = Math.max(0, counted.failures - 1);
    };
    return {
      succeeded: () => {
        takeBack(true);
      },
      abandoned: () => {
        takeBack(false);
      },
    };
  }

  private ceilingKeys(attempt: SignInAttempt): [string, number][] {
    return [
      [`u:${attempt.username}`, this.limits.perUsername],
      [`a:${attempt.address}`, this.limits.perAddress],
    ];
  }

  private liveCount(key: string, now: number): Count | undefined {
    return live(this.counts, { key, now });
  }

  private livePair(key: string, now: number): Pair | undefined {
    return live(this.pairs, { key, now });
  }

  private prune(now: number): void {
    for (const key of [...this.counts.keys()]) this.liveCount(key, now);
    for (const key of [...this.pairs.keys()]) this.livePair(key, now);
  }
}

/** The entry under `key` unless its window has ended (then it is dropped). */
function live<T extends { resetAt: number }>(
  entries: Map<string, T>,
  at: { key: string; now: number },
): T | undefined {
  const entry = entries.get(at.key);
  if (entry !== undefined && entry.resetAt <= at.now) {
    entries.delete(at.key);
    return undefined;
  }
  return entry;
}

function refusal(waitMs: number): ConsoleError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new ConsoleError(
    'TOO_MANY_ATTEMPTS',
    `Too many failed sign-ins; try again in ${retryAfter} seconds.`,
    { retryAfter },
  );
}
