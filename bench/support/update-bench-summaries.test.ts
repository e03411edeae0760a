import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('tells the raw results write-bench-result.ts names, by their name only', () => {
    const names = [
      'ledger',
      'recorder-lag',
      'burst-start',
      'console-pages',
      'workers',
      'gateway-memory',
      'local-mode',
      'memory-store-save',
      'script-command',
    ];
    for (const name of names) {
      expect(owner(`2026-11-28T06-39-20-${name}.json`)).toEqual([name]);
      // Only at the top level of bench/results/, and only with the time of the run.
      expect(owner(`hot-path/2026-11-28T06-39-20-${name}.json`)).toEqual([]);
      expect(owner(`2026-11-28-${name}.json`)).toEqual([]);
    }
    expect(owner('2026-11-28T06-39-20-lag.json')).toEqual([]);
    expect(owner('2026-11-28T06-39-20-recorder-lag-old.json')).toEqual([]);
    expect(BENCHMARKS.map((one) => one.name)).toEqual(
      expect.arrayContaining(['bench', 'side-by-side', ...names]),
    );
  });

  it('has a summary for every benchmark that writes its raw result with write-bench-result.ts', () => {
    const bench = fileURLToPath(new URL('..', import.meta.url));
    const started = readdirSync(bench, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
      .flatMap((path) => [
        ...readFileSync(join(bench, path), 'utf8').matchAll(/startBenchRun\(\s*'([^']+)'/g),
      ])
      .map((match) => match[1]);
    expect(started.length).toBeGreaterThanOrEqual(9);
    for (const name of started) {
      expect(owner(`2026-11-28T06-39-20-${name}.json`), name).toEqual([name]);
    }
  });
});

describe('compareSideBySideRuns with the deployed gateway (E) and local mode (F)', () => {
  const shape = (
    cpuMsPerCall: number,
    callsPerSecond: number,
    p99s: number[],
    processes: Record<string, number>,
    redisCpuMsPerCall: number | null,
  ) => ({
    rates: p99s.map((p99, index) => ({ rate: [200, 500, 1000][index], p99 })),
    saturation: {
      callsPerSecond,
      cpuMsPerCall,
      redisCpuMsPerCall,
      processCpuMsPerCall: processes,
      totalCpuMsPerCall: Object.values(processes).reduce((sum, value) => sum + value, 0),
    },
  });
  const kind = 'non-streamed';
  const newest = {
    path: 'new.json',
    date: '2026-11-28T00:00:00.000Z',
    json: {
      figures: {
        B: { [kind]: shape(0.05, 20_000, [2, 2, 2], { proxy: 0.05 }, null) },
        E: {
          [kind]: shape(0.1, 5_000, [3, 4, 5], { gateway: 0.1, recorder: 0.05, redis: 0.05 }, 0.05),
        },
        F: { [kind]: shape(0.25, 2_500, [6, 6, 6], { local: 0.25 }, null) },
      },
    },
  };
  const older = run('old.json', 0.1, 0.05);

  it('compares E and F with B, and F with E, over the runs that measured them', () => {
    const compared = compareSideBySideRuns([newest, older]);
    expect(compared.runs).toEqual(['old.json']);
    const figures = compared[kind] as Record<string, unknown>;
    expect(figures.cpuMsPerCall).toMatchObject({ gateway: [0.1] });
    expect(figures.deployed).toEqual({
      runs: ['new.json'],
      cpuMsPerCall: { target: [0.1], bare: [0.05], ratio: [2], ratioRange: [2, 2] },
      totalCpuMsPerCall: { target: [0.2], bare: [0.05], ratio: [4], ratioRange: [4, 4] },
      processCpuMsPerCall: [{ gateway: 0.1, recorder: 0.05, redis: 0.05 }],
      callsPerSecondAtSaturation: {
        target: [5000],
        bare: [20000],
        ratio: [0.25],
        ratioRange: [0.25, 0.25],
      },
      redisCpuMsPerCall: [0.05],
      p99AboveBareMs: { '200': [1], '500': [2], '1000': [3] },
    });
    expect(figures.local).toMatchObject({
      totalCpuMsPerCall: { ratio: [5] },
      redisCpuMsPerCall: [null],
    });
    expect(figures.localAgainstDeployed).toEqual({
      runs: ['new.json'],
      againstGateway: {
        local: [0.25],
        deployedGateway: [0.1],
        ratio: [2.5],
        ratioRange: [2.5, 2.5],
      },
      againstEveryProcess: {
        local: [0.25],
        deployed: [0.2],
        ratio: [1.25],
        ratioRange: [1.25, 1.25],
      },
      callsPerSecondAtSaturation: {
        local: [2500],
        deployed: [5000],
        ratio: [0.5],
        ratioRange: [0.5, 0.5],
      },
      p99AboveDeployedMs: { '200': [3], '500': [2], '1000': [1] },
    });
  });

  it('keeps a full run of chosen targets, not a quick one', () => {
    const owner = (command: string) =>
      BENCHMARKS.filter((one) =>
        one.matches('2026-11-28-side-by-side-BDEF.json', { facts: { command } }),
      ).map((one) => one.name);
    expect(owner('npm run bench -- --side-by-side --targets B,D,E,F')).toEqual(['side-by-side']);
    expect(owner('npm run bench -- --side-by-side --quick --targets E,F')).toEqual([]);
  });
});
