/**
 * Figures of one scenario against its baseline measured in the same run: added latency (scenario
 * minus baseline, per percentile) and plain ratios (scenario / baseline). Pure.
 */
import type { LatencySummary } from '../support/compute-percentiles.js';

export interface AddedLatency {
  p50: number;
  p99: number;
  p999: number;
}

/** `value / baseline`, or null when either is missing or the baseline is zero. */
export function ratio(value: number | null, baseline: number | null): number | null {
  if (value === null || baseline === null) return null;
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return value / baseline;
}

/** Scenario percentiles minus baseline percentiles, in the same unit (ms). */
export function addedLatency(scenario: LatencySummary, baseline: LatencySummary): AddedLatency {
  return {
    p50: scenario.p50 - baseline.p50,
    p99: scenario.p99 - baseline.p99,
    p999: scenario.p999 - baseline.p999,
  };
}

/** CPU seconds spent per 1,000 requests; null when nothing was sent. */
export function cpuSecondsPerThousand(cpuSeconds: number, requests: number): number | null {
  if (requests <= 0) return null;
  return (cpuSeconds * 1000) / requests;
}

/**
 * Per-event lateness of a stream: each event's offset from the response head minus the baseline's
 * median offset for the same event index. Indices the baseline never saw are skipped.
 */
export function chunkLateness(
  offsets: readonly (readonly [index: number, offsetMs: number])[],
  baselineMedians: ReadonlyMap<number, number>,
): number[] {
  const lateness: number[] = [];
  for (const [index, offset] of offsets) {
    const expected = baselineMedians.get(index);
    if (expected !== undefined) lateness.push(offset - expected);
  }
  return lateness;
}

/** Median offset per event index, the baseline for `chunkLateness`. */
export function medianOffsetByIndex(
  offsets: readonly (readonly [index: number, offsetMs: number])[],
): Map<number, number> {
  const byIndex = new Map<number, number[]>();
  for (const [index, offset] of offsets) {
    const list = byIndex.get(index) ?? [];
    list.push(offset);
    byIndex.set(index, list);
  }
  const medians = new Map<number, number>();
  for (const [index, list] of byIndex) {
    list.sort((left, right) => left - right);
    medians.set(index, list[Math.ceil(list.length / 2) - 1] ?? 0);
  }
  return medians;
}
