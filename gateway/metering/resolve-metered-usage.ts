/**
 * Turns a usage report into the buckets to bill (DESIGN.md 5.9): reported usage is `exact`; a stream
 * whose final usage never arrived keeps what was reported and estimates the output from the text
 * (`estimated`); reported usage that had to be repaired (not a number, negative, fractional or
 * beyond `MAX_USAGE_TOKENS`) is `estimated` and never billed below the gateway's own estimate
 * (request size for input, generated text for output); with no usage at all, the text and the
 * request size give an estimate; with neither usage nor text, nothing is billed (`none`).
 */
import { emptyUsage, type UsageBuckets } from '../../store/usage-buckets.js';
import type { UsageRecord } from '../../store/usage-records.js';
import { estimateTokensFromChars } from './accumulate-text.js';
import { hasRepairedUsage, MAX_USAGE_TOKENS } from './check-usage-invariants.js';
import type { UsageReport } from '../spec/usage-report.js';

export interface MeteredUsage {
  usage: UsageBuckets;
  accuracy: UsageRecord['accuracy'];
  flags: string[];
}

export interface ResolveMeteredUsageOptions {
  report: UsageReport;
  /** Input tokens estimated from the request (e.g. body bytes / 4), used when none were reported. */
  estimatedInputTokens: number;
}

function boundedTokens(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(Math.ceil(value), 0), MAX_USAGE_TOKENS) : 0;
}

/** Raises repaired usage to at least the gateway's own estimates of input and output. */
function withEstimateFloors(
  usage: UsageBuckets,
  estimate: { input: number; output: number },
): UsageBuckets {
  const inputTotal =
    usage.inputUncached + usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
  const missingInput = Math.max(0, estimate.input - inputTotal);
  return {
    ...usage,
    inputUncached: Math.min(usage.inputUncached + missingInput, MAX_USAGE_TOKENS),
    output: Math.max(usage.output, estimate.output),
  };
}

export function resolveMeteredUsage(options: ResolveMeteredUsageOptions): MeteredUsage {
  const { report } = options;
  const flags = [...report.flags];
  const textTokens = boundedTokens(estimateTokensFromChars(report.textChars));
  const estimatedInput = boundedTokens(options.estimatedInputTokens);
  if (report.usage !== null) {
    const repaired = hasRepairedUsage(report.flags);
    if (!report.provisional && !repaired) {
      return { usage: report.usage, accuracy: 'exact', flags };
    }
    let usage = report.usage;
    if (report.provisional) {
      flags.push('output-estimated');
      usage = { ...usage, output: Math.max(usage.output, textTokens) };
    }
    if (repaired) {
      flags.push('usage-repaired');
      usage = withEstimateFloors(usage, { input: estimatedInput, output: textTokens });
    }
    return { usage, accuracy: 'estimated', flags };
  }
  if (report.textChars > 0) {
    flags.push('usage-estimated');
    const usage = emptyUsage();
    usage.inputUncached = estimatedInput;
    usage.output = textTokens;
    return { usage, accuracy: 'estimated', flags };
  }
  return { usage: emptyUsage(), accuracy: 'none', flags };
}
