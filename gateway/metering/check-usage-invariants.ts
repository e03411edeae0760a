/**
 * Invariant checks on normalised usage: no negative or fractional bucket, reasoning never more than
 * output. Violations are repaired (clamped to 0, rounded, capped) and reported as flags so the usage
 * record keeps the evidence.
 */
import type { UsageBuckets } from '../store/usage-records.js';

const BUCKETS = [
  'inputUncached',
  'cacheRead',
  'cacheWrite5m',
  'cacheWrite1h',
  'output',
  'reasoning',
] as const satisfies readonly (keyof UsageBuckets)[];

export interface CheckedUsage {
  usage: UsageBuckets;
  flags: string[];
}

export function checkUsageInvariants(candidate: UsageBuckets): CheckedUsage {
  const usage = { ...candidate };
  const flags: string[] = [];
  for (const bucket of BUCKETS) {
    const value = usage[bucket];
    if (!Number.isFinite(value)) {
      flags.push(`invalid-${bucket}`);
      usage[bucket] = 0;
    } else if (value < 0) {
      flags.push(`negative-${bucket}`);
      usage[bucket] = 0;
    } else if (!Number.isInteger(value)) {
      flags.push(`fractional-${bucket}`);
      usage[bucket] = Math.round(value);
    }
  }
  if (usage.reasoning > usage.output) {
    flags.push('reasoning-exceeds-output');
    usage.reasoning = usage.output;
  }
  return { usage, flags };
}

/**
 * For protocols whose input total includes cached tokens: the uncached part, flagging a cache count
 * larger than the total it is part of.
 */
export function subtractCached(options: {
  total: number;
  cached: number;
  flags: string[];
}): number {
  const rest = options.total - options.cached;
  if (rest < 0) options.flags.push('cache-exceeds-input-total');
  return rest;
}
