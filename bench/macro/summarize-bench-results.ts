/**
 * The figures the bench reports for each target, each against its baseline from the same run:
 * added latency against scenario A (the floor) at the same rate, chunk lateness against A's event
 * timing, and saturation, CPU and RSS as ratios to scenario B (the bare pass-through). Pure.
 */
import { summarizeLatencies, type LatencySummary } from '../support/compute-percentiles.js';
import {
  addedLatency,
  chunkLateness,
  cpuSecondsPerThousand,
  medianOffsetByIndex,
  ratio,
  type AddedLatency,
} from './compute-ratios.js';
import type { TargetMeasurement } from './measure-target.js';
import type { BenchTarget } from '../support/plan-bench-run.js';

export interface RateFigures {
  rate: number;
  achievedRps: number;
  latency: LatencySummary;
  /** Against scenario A at the same rate (ms). */
  added: AddedLatency | null;
  /** Whether scenario A itself answered at (97 % of) this rate; if not, added latency is noise. */
  floorKeptUp: boolean | null;
  /** p50 latency / A's p50 latency. */
  p50Ratio: number | null;
  /** How much later than in A each streamed event arrives after the response head (ms). */
  chunkDelay: { p50: number; p99: number; count: number } | null;
  cpuPerThousand: number | null;
  redisPerRequest: { total: number; scripts: number; byCommand: Record<string, number> } | null;
  errors: number;
}

export interface TargetFigures {
  id: string;
  label: string;
  workers: number;
  rates: RateFigures[];
  saturationRps: number;
  /** Saturation / B's saturation. */
  saturationRatio: number | null;
  /** CPU per 1,000 requests at the highest fixed rate / B's. */
  cpuRatio: number | null;
  peakRssMb: number | null;
  /** Peak RSS holding the streams / B's. */
  rssRatio: number | null;
  errors: number;
  crossCheck: TargetMeasurement['crossCheck'];
  hold: TargetMeasurement['hold'];
  redisSources: TargetMeasurement['redisSources'];
}

export interface MeasuredTarget {
  target: BenchTarget;
  measurement: TargetMeasurement;
}

const countErrors = (errors: Record<string, number>): number =>
  Object.values(errors).reduce((sum, count) => sum + count, 0);

function streamDelay(
  phase: TargetMeasurement['rates'][number],
  baseline: TargetMeasurement['rates'][number] | undefined,
): RateFigures['chunkDelay'] {
  if (baseline === undefined) return null;
  const lateness: number[] = [];
  for (const [name, offsets] of Object.entries(phase.eventOffsets)) {
    const medians = medianOffsetByIndex(baseline.eventOffsets[name] ?? []);
    lateness.push(...chunkLateness(offsets, medians));
  }
  if (lateness.length === 0) return null;
  const summary = summarizeLatencies(lateness);
  return { p50: summary.p50, p99: summary.p99, count: summary.count };
}

function rateFigures(measured: MeasuredTarget, floor: MeasuredTarget | undefined): RateFigures[] {
  return measured.measurement.rates.map((phase) => {
    const baseline = floor?.measurement.rates.find((other) => other.rate === phase.rate);
    const redis = phase.redis;
    return {
      rate: phase.rate,
      achievedRps: phase.achievedRps,
      latency: phase.latency,
      added: baseline === undefined ? null : addedLatency(phase.latency, baseline.latency),
      floorKeptUp: baseline === undefined ? null : baseline.achievedRps >= 0.97 * phase.rate,
      p50Ratio: baseline === undefined ? null : ratio(phase.latency.p50, baseline.latency.p50),
      chunkDelay: streamDelay(phase, baseline),
      cpuPerThousand: cpuSecondsPerThousand(phase.cpuSeconds, phase.sent),
      redisPerRequest:
        redis === null || phase.sent === 0
          ? null
          : {
              total: redis.total / phase.sent,
              scripts: redis.scripts / phase.sent,
              byCommand: Object.fromEntries(
                Object.entries(redis.byCommand).map(([name, calls]) => [name, calls / phase.sent]),
              ),
            },
      errors: countErrors(phase.errors),
    };
  });
}

export function summarizeBenchResults(measured: readonly MeasuredTarget[]): TargetFigures[] {
  const floor = measured.find((one) => one.target.scenario === 'A');
  const bare = measured.find((one) => one.target.scenario === 'B');
  const bareRates = bare === undefined ? [] : rateFigures(bare, floor);
  const bareCpu = bareRates.at(-1)?.cpuPerThousand ?? null;
  return measured.map((one) => {
    const rates = rateFigures(one, floor);
    const { saturation, hold, crossCheck } = one.measurement;
    const peakRssMb = hold?.peakRssMb ?? null;
    const phaseErrors = one.measurement.rates.reduce(
      (sum, phase) => sum + countErrors(phase.errors),
      0,
    );
    return {
      id: one.target.id,
      label: one.target.label,
      workers: one.target.workers,
      rates,
      saturationRps: saturation.achievedRps,
      saturationRatio: ratio(
        saturation.achievedRps,
        bare?.measurement.saturation.achievedRps ?? null,
      ),
      cpuRatio: ratio(rates.at(-1)?.cpuPerThousand ?? null, bareCpu),
      peakRssMb,
      rssRatio: ratio(peakRssMb, bare?.measurement.hold?.peakRssMb ?? null),
      errors: phaseErrors + countErrors(saturation.errors) + countErrors(hold?.errors ?? {}),
      crossCheck,
      hold,
      redisSources: one.measurement.redisSources,
    };
  });
}
