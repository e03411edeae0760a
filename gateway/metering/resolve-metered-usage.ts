/**
 * Turns a usage report into the buckets to bill (DESIGN.md 5.9): reported usage is `exact`; a stream
 * whose final usage never arrived keeps what was reported and estimates the output from the text
 * (`estimated`); with no usage at all, the text and the request size give an estimate; with neither
 * usage nor text, nothing is billed (`none`).
 */
import type { UsageBuckets, UsageRecord } from '../store/usage-records.js';
import { estimateTokensFromChars } from './accumulate-text.js';
import { emptyBuckets, type UsageReport } from './usage-report.js';

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

export function resolveMeteredUsage(options: ResolveMeteredUsageOptions): MeteredUsage {
  const { report } = options;
  const flags = [...report.flags];
  const textTokens = estimateTokensFromChars(report.textChars);
  if (report.usage !== null && !report.provisional) {
    return { usage: report.usage, accuracy: 'exact', flags };
  }
  if (report.usage !== null) {
    flags.push('output-estimated');
    const output = Math.max(report.usage.output, textTokens);
    return { usage: { ...report.usage, output }, accuracy: 'estimated', flags };
  }
  if (report.textChars > 0) {
    flags.push('usage-estimated');
    const usage = emptyBuckets();
    usage.inputUncached = Math.max(0, Math.ceil(options.estimatedInputTokens));
    usage.output = textTokens;
    return { usage, accuracy: 'estimated', flags };
  }
  return { usage: emptyBuckets(), accuracy: 'none', flags };
}
