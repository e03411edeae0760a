/**
 * What one bench run does, by mode: the targets (scenarios A-D, C and D with 1 and 2 workers), the
 * fixed rates and how long each lasts, the saturation probe, the stream-holding phase, the provider's
 * timing, and how CPUs are split when `taskset` can pin. Pure.
 */
import type { FakeBehaviour } from '../../local/simulator/fake-behaviour.js';

export type Scenario = 'A' | 'B' | 'C' | 'D';

export interface BenchTarget {
  id: string;
  scenario: Scenario;
  label: string;
  workers: number;
  /** Hold 1,000 streams against this target (peak RSS). */
  hold: boolean;
  /** Run the closed-loop cross-check against this target. */
  crossCheck: boolean;
}

export interface BenchPlan {
  mode: 'quick' | 'full';
  targets: BenchTarget[];
  rates: number[];
  rateDurationMs: number;
  warmupMs: number;
  saturation: { concurrency: number; durationMs: number };
  crossCheck: { concurrency: number; durationMs: number };
  hold: { streams: number; seconds: number; rampMs: number };
  /** The provider's timing during the rate phases. */
  provider: FakeBehaviour;
  profileMs: number;
  /** How long the Redis MONITOR sample lasts (scenario D). */
  monitorMs: number;
  connections: number;
}

const LABELS: Record<Scenario, string> = {
  A: 'A: clients straight to the fake provider (floor)',
  B: 'B: bare undici pass-through',
  C: 'C: Tollgate, memory store',
  D: 'D: Tollgate, Redis store',
};

function target(
  scenario: Scenario,
  workers: number,
  flags: Partial<BenchTarget> = {},
): BenchTarget {
  const suffix =
    scenario === 'C' || scenario === 'D' ? ` (${workers} worker${workers > 1 ? 's' : ''})` : '';
  return {
    id: scenario === 'C' || scenario === 'D' ? `${scenario}${workers}` : scenario,
    scenario,
    label: `${LABELS[scenario]}${suffix}`,
    workers,
    hold: false,
    crossCheck: false,
    ...flags,
  };
}

export function planBenchRun(mode: 'quick' | 'full'): BenchPlan {
  const quick = mode === 'quick';
  return {
    mode,
    targets: [
      target('A', 1, { crossCheck: !quick }),
      target('B', 1, { hold: !quick }),
      target('C', 1, { hold: !quick }),
      ...(quick ? [] : [target('C', 2)]),
      target('D', 1, { hold: true, crossCheck: true }),
      target('D', 2, { hold: !quick }),
    ],
    rates: [200, 500, 1000],
    rateDurationMs: quick ? 1_500 : 10_000,
    warmupMs: quick ? 500 : 3_000,
    saturation: { concurrency: 64, durationMs: quick ? 1_500 : 8_000 },
    crossCheck: { concurrency: 16, durationMs: quick ? 1_500 : 6_000 },
    hold: { streams: 1_000, seconds: quick ? 4 : 60, rampMs: quick ? 1_000 : 5_000 },
    provider: { firstByteDelayMs: 20, chunkGapMs: 10, chunks: 5 },
    profileMs: quick ? 2_000 : 10_000,
    monitorMs: quick ? 1_000 : 3_000,
    connections: 512,
  };
}

/** CPU lists for `taskset -c`: the gateway gets the upper half, everything else the lower half. */
export function planCpuPinning(cpuCount: number): { gateway: string; rest: string } | null {
  if (cpuCount < 4) return null;
  const half = Math.floor(cpuCount / 2);
  return { rest: `0-${half - 1}`, gateway: `${half}-${cpuCount - 1}` };
}
