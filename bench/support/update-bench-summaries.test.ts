import { describe, expect, it } from 'vitest';
import { BENCHMARKS, compareSideBySideRuns } from './update-bench-summaries.js';

const target = (cpuMsPerCall: number, callsPerSecond: number, p99s: number[]) => ({
  rates: p99s.map((p99, index) => ({ rate: [200, 500, 1000][index], p99 })),
  saturation: { callsPerSecond, cpuMsPerCall, redisCpuMsPerCall: cpuMsPerCall / 2 },
});
const run = (path: string, gatewayCpu: number, bareCpu: number) => ({
  path,
  date: '2026-11-25T00:00:00.000Z',
  json: {
    figures: {
      B: { 'non-streamed': target(bareCpu, 20_000, [2, 2, 2]) },
      D: { 'non-streamed': target(gatewayCpu, 5_000, [3, 1.5, 2.25]) },
    },
  },
});

describe('compareSideBySideRuns', () => {
  it('gives each run Tollgate against the bare pass-through and the range of the ratios', () => {
    const compared = compareSideBySideRuns([run('a.json', 0.1, 0.05), run('b.json', 0.12, 0.04)]);
    expect(compared).toEqual({
      runs: ['a.json', 'b.json'],
      'non-streamed': {
        cpuMsPerCall: {
          gateway: [0.1, 0.12],
          bare: [0.05, 0.04],
          ratio: [2, 3],
          ratioRange: [2, 3],
        },
        callsPerSecondAtSaturation: {
          gateway: [5000, 5000],
          bare: [20000, 20000],
          ratio: [0.25, 0.25],
          ratioRange: [0.25, 0.25],
        },
        redisCpuMsPerCall: [0.05, 0.06],
        p99AboveBareMs: { '200': [1, 1], '500': [-0.5, -0.5], '1000': [0.25, 0.25] },
      },
    });
  });
});

describe('BENCHMARKS', () => {
  const owner = (path: string, json: Record<string, unknown> = {}) =>
    BENCHMARKS.filter((one) => one.matches(path, json)).map((one) => one.name);

  it('tells each raw result by its command or its name, once', () => {
    expect(owner('2026-11-22.json', { facts: { command: 'npm run bench' } })).toEqual(['bench']);
    expect(
      owner('2026-11-22-quick.json', { facts: { command: 'npm run bench -- --quick' } }),
    ).toEqual([]);
    const sideBySide = { facts: { command: 'npm run bench -- --side-by-side' } };
    expect(owner('2026-11-25-side-by-side.json', sideBySide)).toEqual(['side-by-side']);
    expect(owner('2026-11-24-bulk-keys.json')).toEqual(['bulk-keys']);
    expect(owner('2026-11-27-cache-reload.json')).toEqual(['cache-reload']);
    expect(owner('2026-11-24-upstream-failover.json')).toEqual(['upstream-failover']);
    expect(owner('hot-path/sse-meter-a.json', { results: [] })).toEqual(['sse-meter']);
    expect(owner('profiles/hot-path-a-streamed.json')).toEqual(['profile-hot-path']);
    expect(owner('profiles/survivors-a-streamed.json')).toEqual(['profile-allocations']);
  });
});
