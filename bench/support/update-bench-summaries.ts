/**
 * `npm run bench:summaries`: the current summary of each benchmark, `bench/summaries/<name>.json`,
 * from the raw results the bench writes into `bench/results/` (ignored by git). A benchmark's
 * summary is its newest raw result (by the date the result records, else the file's modification
 * time) with the command that reproduces it; the side-by-side summary also holds the gateway's
 * figures against the bare pass-through's for the newest three full runs that measured both, each
 * run and the range, and so the deployed gateway's (E) and local mode's (F), and F against E.
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
/** A raw result written by write-bench-result.ts: `<date>T<time>-<name>.json`, at the top level. */
const writtenAs =
  (name: string) =>
  (path: string): boolean =>
    new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${name}\\.json$`).test(path);

export const BENCHMARKS: Benchmark[] = [
  {
    name: 'bench',
    command: 'npm run bench',
    matches: (_path, json) => commandOf(json) === 'npm run bench',
  },
  {
    name: 'side-by-side',
    command: 'npm run bench -- --side-by-side',
    // Full runs, of every target or of those `--targets` names (not `--quick`).
    matches: (path, json) =>
      topLevel(path) &&
      /^npm run bench -- --side-by-side( --targets [A-F,]+)?$/.test(commandOf(json)),
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
    name: 'tracing-cost',
    command:
      'nice -n -10 npx tsx bench/profile/compare-tracing-cost.ts <label> [non-streamed|streamed]',
    matches: (path) => /^profiles\/tracing-cost-/.test(path),
  },
  {
    name: 'profile-allocations',
    command: 'npx tsx bench/profile/profile-allocations.ts <label> [non-streamed|streamed]',
    matches: (path) => /^profiles\/(allocations|survivors)-/.test(path),
  },
  {
    name: 'ledger',
    command: 'npx tsx bench/macro/ledger-bench.ts',
    matches: writtenAs('ledger'),
  },
  {
    name: 'recorder-lag',
    command: 'npx tsx bench/macro/recorder-lag-bench.ts',
    matches: writtenAs('recorder-lag'),
  },
  {
    name: 'burst-start',
    command: 'npm run build && npx tsx bench/macro/burst-start-bench.ts',
    matches: writtenAs('burst-start'),
  },
  {
    name: 'console-pages',
    command: 'npx tsx bench/macro/console-pages.ts',
    matches: writtenAs('console-pages'),
  },
  {
    name: 'workers',
    command: 'npx tsx bench/macro/measure-workers.ts',
    matches: writtenAs('workers'),
  },
  {
    name: 'gateway-memory',
    command: 'npm run build && npx tsx bench/macro/measure-gateway-memory.ts <label>',
    matches: writtenAs('gateway-memory'),
  },
  {
    name: 'local-mode',
    command: 'npx tsx bench/macro/probe-local-mode.ts',
    matches: writtenAs('local-mode'),
  },
  {
    name: 'call-instructions',
    command: 'npx tsx bench/profile/count-call-instructions.ts',
    matches: writtenAs('call-instructions'),
  },
  {
    name: 'memory-store-save',
    command: 'npx tsx bench/micro/memory-store-save-bench.ts',
    matches: writtenAs('memory-store-save'),
  },
  {
    name: 'script-command',
    command: 'npx tsx bench/micro/script-command-bench.ts',
    matches: writtenAs('script-command'),
  },
  {
    name: 'lua-script-overhead',
    command: 'npx tsx bench/micro/lua-script-overhead.ts',
    matches: writtenAs('lua-script-overhead'),
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
  /** Every process involved, Redis included (runs since targets E and F). */
  processCpuMsPerCall?: Record<string, number>;
  totalCpuMsPerCall?: number;
}
interface RateFigures {
  rate: number;
  p99: number;
}
interface TargetFigures {
  rates: RateFigures[];
  saturation: SaturationFigures;
}
type SideBySideFigures = Record<string, Record<string, TargetFigures>>;

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
const figuresOf = (run: RawResult): SideBySideFigures =>
  (run.json.figures as SideBySideFigures | undefined) ?? {};
/** A target's CPU per call of every process; before targets E and F, its own process's. */
const totalOf = (figures: TargetFigures): number =>
  figures.saturation.totalCpuMsPerCall ?? figures.saturation.cpuMsPerCall;

/** The newest `RATIO_RUNS` of the runs (newest first) that measured both targets. */
function runsWith(runs: RawResult[], ids: readonly string[]): RawResult[] {
  return runs
    .filter((run) => ids.every((id) => figuresOf(run)[id] !== undefined))
    .slice(0, RATIO_RUNS);
}

interface Pair {
  one: TargetFigures;
  other: TargetFigures;
}

function pairsOf(runs: RawResult[], one: string, other: string, kind: string): Pair[] {
  return runs.map((run) => {
    const figures = figuresOf(run);
    const mine = figures[one]?.[kind];
    const theirs = figures[other]?.[kind];
    if (mine === undefined || theirs === undefined) throw new Error(`${run.path}: no ${kind}`);
    return { one: mine, other: theirs };
  });
}

/** Each run's figure of both, their ratio per run and its range. */
function ratioOf(
  pairs: Pair[],
  read: (figures: TargetFigures) => number,
  names: [string, string],
  digits = 3,
  readOther: (figures: TargetFigures) => number = read,
): Json {
  const ratio = pairs.map(({ one, other }) => read(one) / readOther(other));
  return {
    [names[0]]: pairs.map(({ one }) => round(read(one), digits)),
    [names[1]]: pairs.map(({ other }) => round(readOther(other), digits)),
    ratio: ratio.map((value) => round(value, 2)),
    ratioRange: range(ratio).map((value) => round(value, 2)),
  };
}

function p99Above(pairs: Pair[]): Record<string, number[]> {
  const above: Record<string, number[]> = {};
  for (const [index, rate] of (pairs[0]?.one.rates ?? []).entries()) {
    above[String(rate.rate)] = pairs.map(({ one, other }) =>
      round((one.rates[index]?.p99 ?? NaN) - (other.rates[index]?.p99 ?? NaN), 2),
    );
  }
  return above;
}

/**
 * Target E (the gateway as deployed) or F (local mode) against the bare pass-through: CPU per call
 * of its own process and of every process involved (against the pass-through's), each process's
 * share, calls/s at saturation, Redis CPU per call, p99 above the pass-through's.
 */
function againstBare(runs: RawResult[], id: string, kind: string): Json {
  const pairs = pairsOf(runs, id, 'B', kind);
  return {
    runs: runs.map((run) => run.path),
    cpuMsPerCall: ratioOf(pairs, (one) => one.saturation.cpuMsPerCall, ['target', 'bare']),
    totalCpuMsPerCall: ratioOf(pairs, totalOf, ['target', 'bare']),
    processCpuMsPerCall: pairs.map(({ one }) =>
      Object.fromEntries(
        Object.entries(one.saturation.processCpuMsPerCall ?? {}).map(([name, value]) => [
          name,
          round(value),
        ]),
      ),
    ),
    callsPerSecondAtSaturation: ratioOf(
      pairs,
      (one) => one.saturation.callsPerSecond,
      ['target', 'bare'],
      0,
    ),
    redisCpuMsPerCall: pairs.map(({ one }) =>
      one.saturation.redisCpuMsPerCall === null ? null : round(one.saturation.redisCpuMsPerCall),
    ),
    p99AboveBareMs: p99Above(pairs),
  };
}

/**
 * Local mode (F) against the gateway as deployed (E), the goal being F at most 1.3x E: the
 * local process's CPU per call against the deployed gateway process's and against every deployed
 * process's (operator, recorder, control plane, PostgreSQL and Redis included), calls/s at
 * saturation, and the p99 above the deployed gateway's.
 */
function localAgainstDeployed(runs: RawResult[], kind: string): Json {
  const pairs = pairsOf(runs, 'F', 'E', kind);
  return {
    runs: runs.map((run) => run.path),
    againstGateway: ratioOf(
      pairs,
      totalOf,
      ['local', 'deployedGateway'],
      3,
      (other) => other.saturation.cpuMsPerCall,
    ),
    againstEveryProcess: ratioOf(pairs, totalOf, ['local', 'deployed']),
    callsPerSecondAtSaturation: ratioOf(
      pairs,
      (one) => one.saturation.callsPerSecond,
      ['local', 'deployed'],
      0,
    ),
    p99AboveDeployedMs: p99Above(pairs),
  };
}

/**
 * Tollgate (D) against the bare pass-through (B) in the newest side-by-side runs that measured both
 * (at most three), per kind of call: CPU per call of both and their ratio, calls/s at saturation of
 * both and their ratio, Redis CPU per call, and the p99 above the bare pass-through's at each fixed
 * rate. Where runs measured them, the same per kind for the gateway as deployed (E, `deployed`)
 * and local mode (F, `local`) against B, and F against E (`localAgainstDeployed`).
 */
export function compareSideBySideRuns(runs: RawResult[]): Json {
  const withD = runsWith(runs, ['D', 'B']);
  const withE = runsWith(runs, ['E', 'B']);
  const withF = runsWith(runs, ['F', 'B']);
  const withEF = runsWith(runs, ['F', 'E']);
  const first = figuresOf(runs[0] ?? { path: '', date: '', json: {} });
  const kinds = Object.keys(first.D ?? first.E ?? first.F ?? {});
  const byKind: Json = {};
  for (const kind of kinds) {
    const entry: Json = {};
    if (withD.length > 0) {
      const pairs = pairsOf(withD, 'D', 'B', kind);
      entry.cpuMsPerCall = ratioOf(pairs, (one) => one.saturation.cpuMsPerCall, [
        'gateway',
        'bare',
      ]);
      entry.callsPerSecondAtSaturation = ratioOf(
        pairs,
        (one) => one.saturation.callsPerSecond,
        ['gateway', 'bare'],
        0,
      );
      entry.redisCpuMsPerCall = pairs.map(({ one }) =>
        round(one.saturation.redisCpuMsPerCall ?? NaN),
      );
      entry.p99AboveBareMs = p99Above(pairs);
    }
    if (withE.length > 0) entry.deployed = againstBare(withE, 'E', kind);
    if (withF.length > 0) entry.local = againstBare(withF, 'F', kind);
    if (withEF.length > 0) entry.localAgainstDeployed = localAgainstDeployed(withEF, kind);
    byKind[kind] = entry;
  }
  return { runs: withD.map((run) => run.path), ...byKind };
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
              mine.map((run) => ({ ...run, path: `bench/results/${run.path}` })),
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
