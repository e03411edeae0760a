/**
 * `npm run bench:summaries`: the current summary of each benchmark, `bench/summaries/<name>.json`,
 * from the raw results the bench writes into `bench/results/` (ignored by git). A benchmark's
 * summary is its newest raw result (by the date the result records, else the file's modification
 * time) with the command that reproduces it; the side-by-side summary also holds the gateway's
 * figures against the bare pass-through's for the newest three full runs, each run and the range.
 * The scripts that write a raw result call this at their end; running it alone rebuilds every
 * summary from whatever `bench/results/` holds. A benchmark with no raw result keeps its summary.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS = join(root, 'bench/results');
const SUMMARIES = join(root, 'bench/summaries');
/** How many of the newest side-by-side runs the ratios cover. */
const RATIO_RUNS = 3;

type Json = Record<string, unknown>;

interface RawResult {
  /** Relative to the repository root. */
  path: string;
  date: string;
  json: Json;
}

interface Benchmark {
  name: string;
  command: string;
  /** Whether a raw result (its path under bench/results/, its content) is this benchmark's. */
  matches: (path: string, json: Json) => boolean;
}

const factsOf = (json: Json): Json =>
  typeof json.facts === 'object' && json.facts !== null ? (json.facts as Json) : {};
const commandOf = (json: Json): string => {
  const command = factsOf(json).command;
  return typeof command === 'string' ? command : '';
};
const topLevel = (path: string): boolean => !path.includes('/');

export const BENCHMARKS: Benchmark[] = [
  {
    name: 'bench',
    command: 'npm run bench',
    matches: (_path, json) => commandOf(json) === 'npm run bench',
  },
  {
    name: 'side-by-side',
    command: 'npm run bench -- --side-by-side',
    matches: (path, json) =>
      topLevel(path) && commandOf(json) === 'npm run bench -- --side-by-side',
  },
  {
    name: 'bulk-keys',
    command: 'npm run bench:bulk-keys -- --keys 2000,10000 --apply server',
    matches: (path) => topLevel(path) && /-bulk-keys\b/.test(path),
  },
  {
    name: 'cache-reload',
    command: 'npm run bench:cache-reload -- --keys 2000,10000',
    matches: (path) => topLevel(path) && /-cache-reload\b/.test(path),
  },
  {
    name: 'upstream-failover',
    command:
      'npx tsx bench/macro/upstream-failover-bench.ts --out bench/results/$(date +%F)-upstream-failover.json',
    matches: (path) => topLevel(path) && /-upstream-failover\b/.test(path),
  },
  {
    name: 'sse-meter',
    command: 'npx tsx bench/micro/sse-meter-bench.ts <label>',
    matches: (path, json) => /^hot-path\/sse-meter-/.test(path) && Array.isArray(json.results),
  },
  {
    name: 'profile-hot-path',
    command: 'npx tsx bench/profile/profile-hot-path.ts <label> [non-streamed|streamed]',
    matches: (path) => /^profiles\/hot-path-/.test(path),
  },
  {
    name: 'profile-allocations',
    command: 'npx tsx bench/profile/profile-allocations.ts <label> [non-streamed|streamed]',
    matches: (path) => /^profiles\/(allocations|survivors)-/.test(path),
  },
];

/** Every JSON file under `folder`, its path relative to `RESULTS`. */
function listRawResults(folder: string): RawResult[] {
  if (!existsSync(folder)) return [];
  const found: RawResult[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...listRawResults(path));
    else if (entry.name.endsWith('.json')) {
      let json: Json;
      try {
        json = JSON.parse(readFileSync(path, 'utf8')) as Json;
      } catch {
        continue;
      }
      const recorded = factsOf(json).date ?? json.date ?? json.time;
      const date = typeof recorded === 'string' ? recorded : statSync(path).mtime.toISOString();
      found.push({ path: relative(RESULTS, path).split('\\').join('/'), date, json });
    }
  }
  return found;
}

interface SaturationFigures {
  callsPerSecond: number;
  cpuMsPerCall: number;
  redisCpuMsPerCall: number | null;
}
interface RateFigures {
  rate: number;
  p99: number;
}
type SideBySideFigures = Record<
  string,
  Record<string, { rates: RateFigures[]; saturation: SaturationFigures }>
>;

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/**
 * Tollgate (D) against the bare pass-through (B) in each of the given side-by-side runs, per kind
 * of call: CPU per call of both and their ratio, calls/s at saturation of both and their ratio,
 * Redis CPU per call, and the p99 above the bare pass-through's at each fixed rate.
 */
export function compareSideBySideRuns(runs: RawResult[]): Json {
  const kinds = Object.keys((runs[0]?.json.figures as SideBySideFigures | undefined)?.D ?? {});
  const byKind: Json = {};
  for (const kind of kinds) {
    const pairs = runs.map((run) => {
      const figures = run.json.figures as SideBySideFigures;
      const gateway = figures.D?.[kind];
      const bare = figures.B?.[kind];
      if (gateway === undefined || bare === undefined) throw new Error(`${run.path}: no ${kind}`);
      return { gateway, bare };
    });
    const cpuRatio = pairs.map(
      ({ gateway, bare }) => gateway.saturation.cpuMsPerCall / bare.saturation.cpuMsPerCall,
    );
    const callsRatio = pairs.map(
      ({ gateway, bare }) => gateway.saturation.callsPerSecond / bare.saturation.callsPerSecond,
    );
    const p99AboveBareMs: Record<string, number[]> = {};
    for (const [index, rate] of (pairs[0]?.gateway.rates ?? []).entries()) {
      p99AboveBareMs[String(rate.rate)] = pairs.map(({ gateway, bare }) =>
        round((gateway.rates[index]?.p99 ?? NaN) - (bare.rates[index]?.p99 ?? NaN), 2),
      );
    }
    byKind[kind] = {
      cpuMsPerCall: {
        gateway: pairs.map(({ gateway }) => round(gateway.saturation.cpuMsPerCall)),
        bare: pairs.map(({ bare }) => round(bare.saturation.cpuMsPerCall)),
        ratio: cpuRatio.map((value) => round(value, 2)),
        ratioRange: range(cpuRatio).map((value) => round(value, 2)),
      },
      callsPerSecondAtSaturation: {
        gateway: pairs.map(({ gateway }) => gateway.saturation.callsPerSecond),
        bare: pairs.map(({ bare }) => bare.saturation.callsPerSecond),
        ratio: callsRatio.map((value) => round(value, 2)),
        ratioRange: range(callsRatio).map((value) => round(value, 2)),
      },
      redisCpuMsPerCall: pairs.map(({ gateway }) =>
        round(gateway.saturation.redisCpuMsPerCall ?? NaN),
      ),
      p99AboveBareMs,
    };
  }
  return { runs: runs.map((run) => run.path), ...byKind };
}

/** Writes the summary of every benchmark that has a raw result; returns the files written. */
export function updateBenchSummaries(): string[] {
  const raw = listRawResults(RESULTS);
  mkdirSync(SUMMARIES, { recursive: true });
  const written: string[] = [];
  for (const benchmark of BENCHMARKS) {
    const mine = raw
      .filter((result) => benchmark.matches(result.path, result.json))
      .sort((a, b) => b.date.localeCompare(a.date));
    const newest = mine[0];
    if (newest === undefined) continue;
    const summary: Json = {
      benchmark: benchmark.name,
      command: benchmark.command,
      date: newest.date,
      source: `bench/results/${newest.path}`,
      ...(benchmark.name === 'side-by-side'
        ? {
            gatewayAgainstBare: compareSideBySideRuns(
              mine
                .slice(0, RATIO_RUNS)
                .map((run) => ({ ...run, path: `bench/results/${run.path}` })),
            ),
          }
        : {}),
      result: newest.json,
    };
    const file = join(SUMMARIES, `${benchmark.name}.json`);
    writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
    written.push(relative(root, file));
  }
  return written;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of updateBenchSummaries()) process.stdout.write(`bench: wrote ${file}\n`);
}
