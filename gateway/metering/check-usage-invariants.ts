/**
 * Invariant checks on normalised usage. Upstream numbers are untrusted: every bucket must be a
 * non-negative integer no larger than `MAX_USAGE_TOKENS`, and reasoning is never more than output.
 * Violations are repaired (not a number: 0; negative: 0; fractional: rounded up; too large or
 * infinite: the bound) and reported as flags so the usage record keeps the evidence; a repaired
 * report is billed as `estimated` (`hasRepairedUsage`, `resolveMeteredUsage`). Never throws.
 */
import { USAGE_BUCKETS, type UsageBuckets } from '../../store/usage-buckets.js';

/**
 * The most tokens one bucket of one request is billed for: five times the largest context window
 * of any model (2M tokens), so a genuine report is never clamped, and small enough that a cost at
 * any allowed price stays an exact integer.
 */
export const MAX_USAGE_TOKENS = 10_000_000;

/** Flag prefixes of a bucket that had to be repaired. */
const REPAIR_PREFIXES = ['invalid-', 'negative-', 'fractional-', 'clamped-'] as const;

/** True when a bucket of the report was repaired, so the usage is not exactly what was reported. */
export function hasRepairedUsage(flags: readonly string[]): boolean {
  return flags.some((flag) => REPAIR_PREFIXES.some((prefix) => flag.startsWith(prefix)));
}

export interface CheckedUsage {
  usage: UsageBuckets;
  flags: string[];
}

export function checkUsageInvariants(candidate: UsageBuckets): CheckedUsage {
  const usage = { ...candidate };
  const flags: string[] = [];
  for (const bucket of USAGE_BUCKETS) {
    const value: unknown = usage[bucket];
    if (typeof value !== 'number' || Number.isNaN(value)) {
      flags.push(`invalid-${bucket}`);
      usage[bucket] = 0;
    } else if (value < 0) {
      flags.push(`negative-${bucket}`);
      usage[bucket] = 0;
    } else if (value > MAX_USAGE_TOKENS) {
      flags.push(`clamped-${bucket}`);
      usage[bucket] = MAX_USAGE_TOKENS;
    } else if (!Number.isInteger(value)) {
      flags.push(`fractional-${bucket}`);
      usage[bucket] = Math.ceil(value);
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
