/**
 * The six disjoint token buckets every usage figure is normalised to (DESIGN.md 5.7), in the one
 * order the stores, the ledger and the docs list them. `reasoning` is an informational subset of
 * `output`; the other five are disjoint and billed (docs/billing.md section 1).
 */
export const USAGE_BUCKETS = [
  'inputUncached',
  'cacheRead',
  'cacheWrite5m',
  'cacheWrite1h',
  'output',
  'reasoning',
] as const;

export type UsageBucket = (typeof USAGE_BUCKETS)[number];

export type UsageBuckets = Record<UsageBucket, number>;

/** Every bucket at zero: a fresh object each call, so callers may fill it in. */
export function emptyUsage(): UsageBuckets {
  return {
    inputUncached: 0,
    cacheRead: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output: 0,
    reasoning: 0,
  };
}
