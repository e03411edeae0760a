/**
 * Percentiles of latency samples (nearest-rank on a sorted copy) and the summary the bench reports.
 * Pure: no clock, no I/O.
 */

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** Nearest-rank percentile of ascending `sorted` values; `quantile` in [0, 1]. NaN when empty. */
export function percentile(sorted: readonly number[], quantile: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(quantile * sorted.length);
  const index = Math.min(sorted.length - 1, Math.max(0, rank - 1));
  return sorted[index] ?? Number.NaN;
}

export function sortAscending(values: readonly number[]): number[] {
  return [...values].sort((left, right) => left - right);
}

export function summarizeLatencies(values: readonly number[]): LatencySummary {
  const sorted = sortAscending(values);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    mean: sorted.length === 0 ? Number.NaN : total / sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    p999: percentile(sorted, 0.999),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] ?? Number.NaN),
  };
}
