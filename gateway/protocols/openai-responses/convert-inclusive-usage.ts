/**
 * OpenAI usage (Responses and Chat Completions alike): input totals include their cached and
 * cache-write parts, output totals include reasoning (wire-formats.md 2.3, 3.3). Normalised into
 * the disjoint buckets.
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { checkUsageInvariants, subtractCached } from '../../metering/check-usage-invariants.js';
import { tokenCount } from '../../spec/usage-report.js';

export interface InclusiveUsageFields {
  input: unknown;
  cached: unknown;
  cacheWrite: unknown;
  output: unknown;
  reasoning: unknown;
}

export function convertInclusiveUsage(fields: InclusiveUsageFields): {
  usage: UsageBuckets;
  flags: string[];
} {
  const flags: string[] = [];
  const cached = tokenCount(fields.cached);
  const cacheWrite = tokenCount(fields.cacheWrite);
  const checked = checkUsageInvariants({
    inputUncached: subtractCached({
      total: tokenCount(fields.input),
      cached: cached + cacheWrite,
      flags,
    }),
    cacheRead: cached,
    cacheWrite5m: cacheWrite,
    cacheWrite1h: 0,
    output: tokenCount(fields.output),
    reasoning: tokenCount(fields.reasoning),
  });
  return { usage: checked.usage, flags: [...flags, ...checked.flags] };
}
