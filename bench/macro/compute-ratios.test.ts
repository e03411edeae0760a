import { describe, expect, it } from 'vitest';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import {
  addedLatency,
  chunkLateness,
  cpuSecondsPerThousand,
  medianOffsetByIndex,
  ratio,
} from './compute-ratios.js';

describe('ratio', () => {
  it('divides by the baseline', () => {
    expect(ratio(600, 1000)).toBeCloseTo(0.6);
    expect(ratio(3, 2)).toBe(1.5);
  });

  it('is null without a usable baseline', () => {
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(ratio(5, null)).toBeNull();
    expect(ratio(Number.NaN, 2)).toBeNull();
  });
});

describe('addedLatency', () => {
  it('subtracts the baseline percentile by percentile', () => {
    const baseline = summarizeLatencies(Array.from({ length: 1000 }, () => 20));
    const scenario = summarizeLatencies(
      Array.from({ length: 1000 }, (_, index) => (index < 990 ? 20.5 : 30)),
    );
    expect(addedLatency(scenario, baseline)).toEqual({ p50: 0.5, p99: 0.5, p999: 10 });
  });
});

describe('cpuSecondsPerThousand', () => {
  it('scales CPU seconds to 1,000 requests', () => {
    expect(cpuSecondsPerThousand(2.5, 5000)).toBe(0.5);
    expect(cpuSecondsPerThousand(1, 0)).toBeNull();
  });
});

describe('chunk lateness', () => {
  it('compares each event with the baseline median of the same index', () => {
    const baseline = medianOffsetByIndex([
      [0, 0],
      [1, 10],
      [1, 12],
      [1, 50],
      [2, 20],
    ]);
    expect([...baseline.entries()]).toEqual([
      [0, 0],
      [1, 12],
      [2, 20],
    ]);
    const lateness = chunkLateness(
      [
        [0, 1],
        [1, 13],
        [2, 25],
        [3, 99],
      ],
      baseline,
    );
    expect(lateness).toEqual([1, 1, 5]);
  });
});
