import { describe, expect, it } from 'vitest';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import type { PhaseFigures, RatePhase, TargetMeasurement } from './measure-target.js';
import { planBenchRun, type BenchTarget } from '../support/plan-bench-run.js';
import { summarizeBenchResults } from './summarize-bench-results.js';

function phase(latencyMs: number, extra: Partial<PhaseFigures> = {}): PhaseFigures {
  return {
    sent: 1000,
    ok: 1000,
    durationMs: 1000,
    achievedRps: 1000,
    latency: summarizeLatencies(Array.from({ length: 1000 }, () => latencyMs)),
    byKind: {},
    errors: {},
    cpuSeconds: 1,
    providerCpuSeconds: 0.5,
    redis: null,
    ...extra,
  };
}

function measurement(options: {
  latencyMs: number;
  eventMs: number;
  saturationRps: number;
  cpuSeconds: number;
  peakRssMb: number | null;
}): TargetMeasurement {
  const rate: RatePhase = {
    ...phase(options.latencyMs, { cpuSeconds: options.cpuSeconds, errors: { '502': 2 } }),
    rate: 1000,
    eventOffsets: {
      'anthropic-stream': [
        [0, 0],
        [1, options.eventMs],
      ],
    },
  };
  return {
    rates: [rate],
    saturation: phase(1, { achievedRps: options.saturationRps }),
    crossCheck: null,
    redisSources: null,
    hold:
      options.peakRssMb === null
        ? null
        : {
            streams: 1000,
            ok: 999,
            errors: { '0': 1 },
            seconds: 60,
            idleRssMb: 80,
            peakRssMb: options.peakRssMb,
            maxSampledRssMb: options.peakRssMb,
            peakFromHwm: true,
          },
  };
}

const targets = planBenchRun('full').targets;
const target = (id: string): BenchTarget => {
  const found = targets.find((one) => one.id === id);
  if (found === undefined) throw new Error(id);
  return found;
};

describe('summarizeBenchResults', () => {
  const figures = summarizeBenchResults([
    {
      target: target('A'),
      measurement: measurement({
        latencyMs: 20,
        eventMs: 10,
        saturationRps: 4000,
        cpuSeconds: 0.5,
        peakRssMb: null,
      }),
    },
    {
      target: target('B'),
      measurement: measurement({
        latencyMs: 21,
        eventMs: 10.5,
        saturationRps: 2000,
        cpuSeconds: 1,
        peakRssMb: 100,
      }),
    },
    {
      target: target('D1'),
      measurement: measurement({
        latencyMs: 23,
        eventMs: 12,
        saturationRps: 1500,
        cpuSeconds: 3,
        peakRssMb: 200,
      }),
    },
  ]);
  const [floor, bare, gateway] = figures;

  it('measures added latency and chunk delay against scenario A at the same rate', () => {
    expect(floor?.rates[0]?.added).toEqual({ p50: 0, p99: 0, p999: 0 });
    expect(gateway?.rates[0]?.added).toEqual({ p50: 3, p99: 3, p999: 3 });
    expect(gateway?.rates[0]?.p50Ratio).toBeCloseTo(1.15);
    expect(gateway?.rates[0]?.floorKeptUp).toBe(true);
    expect(gateway?.rates[0]?.chunkDelay).toEqual({ p50: 0, p99: 2, count: 2 });
  });

  it('puts saturation, CPU and RSS against scenario B', () => {
    expect(bare?.saturationRatio).toBe(1);
    expect(gateway?.saturationRatio).toBe(0.75);
    expect(gateway?.rates[0]?.cpuPerThousand).toBe(3);
    expect(gateway?.cpuRatio).toBe(3);
    expect(gateway?.rssRatio).toBe(2);
    expect(floor?.rssRatio).toBeNull();
  });

  it('adds up errors from every phase', () => {
    expect(floor?.errors).toBe(2);
    expect(gateway?.errors).toBe(3);
  });
});
