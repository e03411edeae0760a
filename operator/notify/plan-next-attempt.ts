/**
 * Pure: what follows a delivery attempt. 2xx = delivered; 4xx other than 408 and 429 = failed for
 * good; anything else (5xx, 408, 429, timeouts, refused connections) is retried with exponential
 * backoff (doubling from `baseMs`, capped at `maxMs`), or after the receiver's Retry-After when that
 * is longer, until `maxAttempts` attempts were made.
 */

export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

/**
 * 12 attempts, waiting 10 s, 20 s, 40 s … 5 min 20 s, then 10 min between the last five: the last
 * attempt is due about an hour (60 min 30 s) after the first. Attempts run on the notification
 * rounds (every 30 s by default), so each wait rounds up to the next round.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 12,
  baseMs: 10_000,
  maxMs: 600_000,
};

export type AttemptOutcome =
  { kind: 'delivered' } | { kind: 'failed'; reason: string } | { kind: 'retry'; atMs: number };

export interface AttemptResult {
  /** The HTTP status, or null when no response came (timeout, connection error). */
  statusCode: number | null;
  /** The Retry-After header as sent (seconds or an HTTP date), if any. */
  retryAfter?: string | undefined;
}

/** Retry-After in milliseconds from `now`, or null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function backoffMs(attempts: number, policy: RetryPolicy): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

export function planNextAttempt(input: {
  result: AttemptResult;
  /** Attempts made, this one included. */
  attempts: number;
  now: number;
  policy: RetryPolicy;
}): AttemptOutcome {
  const { result, attempts, now, policy } = input;
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { kind: 'failed', reason: `the receiver refused it (HTTP ${String(status)})` };
  }
  if (attempts >= policy.maxAttempts) {
    return { kind: 'failed', reason: `gave up after ${String(attempts)} attempts` };
  }
  const wait = Math.max(backoffMs(attempts, policy), retryAfterMs(result.retryAfter, now) ?? 0);
  return { kind: 'retry', atMs: now + Math.min(wait, policy.maxMs) };
}
