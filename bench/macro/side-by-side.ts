/**
 * `npm run bench -- --side-by-side [--quick] [--targets A,B,D,E,F]`: the bare pass-through and
 * Tollgate in one run, same layout, so the ratio between them is measured rather than remembered.
 * A minimal Chat Completions upstream (`serve-mock-upstream.ts`) answers at once; the targets are A
 * (clients straight to it: the floor), B (the bare node:http + undici proxy,
 * `serve-bench-proxy.ts`), D (Tollgate on a private Redis with every admission feature set,
 * `serve-bench-gateway.ts`, seeded), E (the gateway as deployed: the built `tollgate gateway`,
 * `operator` and `recorder` processes on the same Redis and a PostgreSQL database, programmed by
 * the operator from applied resources, `start-deployed-target.ts`) and F (`tollgate local` as
 * `npm start` runs it, memory store and embedded ledger, `start-local-target.ts`). On a 2-CPU
 * machine the server under test and its Redis are pinned to CPU 1, the load generator and the
 * upstream to CPU 0 (`taskset`; with 4 or more the halves of `planCpuPinning`); E's operator,
 * recorder, control plane and database backends run beside the load generator at the idle
 * scheduling policy (`start-deployed-target.ts`). For non-streamed and streamed Chat Completions
 * each: after a 5 s closed-loop warm-up (1 s with `--quick`) whose calls the recorders
 * of E and F have written, added p50/p99 at 200, 500 and 1,000 calls/s (open loop, minus A at the same
 * rate; each rate first runs 2 s unmeasured, so the figures are the rate's steady state and not
 * the change of load before it: "The fifth round" in the history of docs/benchmarks.md), then calls/s at
 * saturation (closed loop, 64 callers) with the CPU per call of every process of the target (E:
 * gateway, operator, recorder, control plane and the PostgreSQL backends of its database; the
 * window runs until the recorder has drained) and, with Redis, Redis's CPU (`INFO cpu`) and
 * commands (`INFO commandstats`) per call. At each rate the targets that serve metrics (E: the
 * gateway, F: the local process) also report their event-loop delay and garbage-collection pauses
 * over the rate (`read-loop-figures.ts`), in a table of the tail with each target's p99 minus the
 * bare pass-through's of the same round. `--repeat N` measures the targets N times over,
 * alternating (B, E, B, E, ...), `--kinds non-streamed|streamed` one kind, `--tail-only` skips
 * the saturation window; such experiment runs leave the summaries alone. Writes
 * `bench/results/<date>-side-by-side[-<targets>][-quick]-<HHMM>.json` and prints the tables.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import type { BenchCredentials, BenchRequestKind } from '../support/describe-bench-requests.js';
import { parseCpuSeconds, processTree } from '../support/read-process-stats.js';
import {
  countCommands,
  parseCommandStats,
  readRedisCpuSeconds,
} from '../support/read-redis-commandstats.js';
import type { LoadResult } from '../support/run-load-modes.js';
import type { BenchChild } from '../support/spawn-bench-child.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import {
  startDeployedTarget,
  type MeasuredProcesses,
  type StartedSystem,
} from '../support/start-deployed-target.js';
import { startLocalTarget } from '../support/start-local-target.js';
import { driveLoad, startSideBySideLayout } from '../support/start-side-by-side-layout.js';
import {
  cpuMsPerCall,
  cpuSecondsBetween,
  type CpuReading,
  sideBySideCommand,
  type SideBySideTarget,
} from '../support/side-by-side-figures.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { loopFiguresBetween, type LoopFigures } from '../support/read-loop-figures.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const KINDS: { label: string; kind: BenchRequestKind }[] = [
  { label: 'non-streamed', kind: { platform: 'openai', stream: false, chat: true } },
  { label: 'streamed (20 events)', kind: { platform: 'openai', stream: true, chat: true } },
];
const RATES = [200, 500, 1000];

interface KindFigures {
  rates: {
    rate: number;
    achieved: number;
    p50: number;
    p99: number;
    errors: number;
    /** How late the load generator sent its calls (p99 and max, ms): groups of arrivals. */
    sendLate?: { p99Ms: number; maxMs: number };
    /** The server's event-loop delay and GC pauses during the rate (targets with metrics: E, F). */
    loop?: LoopFigures;
  }[];
  saturation: {
    callsPerSecond: number;
    /** The target's own process: the proxy (B), the gateway (D, E), the local process (F). */
    cpuMsPerCall: number;
    /** Every process involved, Redis included, by name. */
    processCpuMsPerCall: Record<string, number>;
    /** Their sum. */
    totalCpuMsPerCall: number;
    redisCpuMsPerCall: number | null;
    redisCommandsPerCall: number | null;
    errors: number;
    /** Failed calls of the closed loop by status (0: transport error). */
    errorsByStatus: Record<string, number>;
  };
}

function errorCount(result: LoadResult): number {
  return Object.values(result.errors).reduce((sum, count) => sum + count, 0);
}

function readCpu(pid: number): CpuReading {
  const reading = new Map<number, number>();
  for (const one of processTree(pid)) {
    try {
      reading.set(one, parseCpuSeconds(readFileSync(`/proc/${one}/stat`, 'utf8')));
    } catch {
      // Ended in between.
    }
  }
  return reading;
}

async function readAll(processes: MeasuredProcesses): Promise<Record<string, CpuReading>> {
  const readings: Record<string, CpuReading> = {};
  for (const [name, pid] of Object.entries(processes.pids)) readings[name] = readCpu(pid);
  if (processes.postgresPids !== undefined) {
    const merged = new Map<number, number>();
    for (const pid of await processes.postgresPids()) {
      for (const [one, seconds] of readCpu(pid)) merged.set(one, seconds);
    }
    readings.postgres = merged;
  }
  return readings;
}

/** A started target as the measure sees it. */
interface Measured extends MeasuredProcesses {
  url: string;
  metricsUrl?: string;
  credentials: BenchCredentials;
  drained?: () => Promise<void>;
}

async function measureKind(options: {
  loadgen: BenchChild;
  target: Measured;
  kind: BenchRequestKind;
  redis: Redis | null;
  quick: boolean;
  /** The rates only, no saturation window (`--tail-only`). */
  tailOnly: boolean;
}): Promise<KindFigures> {
  const { loadgen, kind, target } = options;
  const call = { url: target.url, kind, credentials: target.credentials };
  // Warm-up: long enough for V8 to have optimized the path (the local-mode probe's first load after
  // 2 s still ran slower, docs/benchmarks.md). The recorders (E, F) write its calls before the
  // first rate starts.
  await driveLoad(loadgen, {
    ...call,
    load: { mode: 'closed', concurrency: 16, durationMs: options.quick ? 1_000 : 5_000 },
  });
  await target.drained?.();
  const rates: KindFigures['rates'] = [];
  for (const rate of RATES) {
    const durationMs = options.quick ? 2_000 : 8_000;
    const leadInMs = options.quick ? 500 : 2_000;
    await driveLoad(loadgen, { ...call, load: { mode: 'open', rate, durationMs: leadInMs } });
    // A scrape resets the loop-delay histogram: the one after the rate gives the rate's delay.
    const scrape = async (): Promise<string | null> =>
      target.metricsUrl === undefined ? null : (await fetch(target.metricsUrl)).text();
    const startPage = await scrape();
    const result = await driveLoad(loadgen, { ...call, load: { mode: 'open', rate, durationMs } });
    const endPage = await scrape();
    const latencies = Object.values(result.latencies).flat();
    const summary = summarizeLatencies(latencies);
    rates.push({
      rate,
      achieved: Math.round((latencies.length * 1000) / result.durationMs),
      p50: summary.p50,
      p99: summary.p99,
      errors: errorCount(result),
      ...(result.sendLate === undefined ? {} : { sendLate: result.sendLate }),
      ...(startPage === null || endPage === null
        ? {}
        : { loop: loopFiguresBetween(startPage, endPage) }),
    });
  }
  if (options.tailOnly) {
    const none = { callsPerSecond: NaN, cpuMsPerCall: NaN, totalCpuMsPerCall: NaN };
    return {
      rates,
      saturation: {
        ...none,
        processCpuMsPerCall: {},
        redisCpuMsPerCall: null,
        redisCommandsPerCall: null,
        errors: 0,
        errorsByStatus: {},
      },
    };
  }
  // The window of the CPU figures starts with nothing left to record and ends once the recorder
  // has written the window's calls.
  await target.drained?.();
  const before = await readAll(target);
  const redisBefore = options.redis === null ? 0 : await readRedisCpuSeconds(options.redis);
  await options.redis?.config('RESETSTAT');
  const durationMs = options.quick ? 3_000 : 8_000;
  const result = await driveLoad(loadgen, {
    ...call,
    load: { mode: 'closed', concurrency: 64, durationMs },
  });
  const answered = Object.values(result.latencies).flat().length;
  await target.drained?.();
  const after = await readAll(target);
  const seconds: Record<string, number> = {};
  for (const [name, reading] of Object.entries(after)) {
    seconds[name] = cpuSecondsBetween(before[name] ?? new Map(), reading);
  }
  let redisCpuMsPerCall: number | null = null;
  let redisCommandsPerCall: number | null = null;
  if (options.redis !== null && answered > 0) {
    const redisSeconds = (await readRedisCpuSeconds(options.redis)) - redisBefore;
    seconds.redis = redisSeconds;
    redisCpuMsPerCall = (redisSeconds * 1000) / answered;
    const commands = countCommands(parseCommandStats(await options.redis.info('commandstats')));
    redisCommandsPerCall = commands.total / answered;
  }
  const perCall = cpuMsPerCall(seconds, answered);
  const main = Object.keys(target.pids)[0] ?? '';
  return {
    rates,
    saturation: {
      callsPerSecond: Math.round((answered * 1000) / result.durationMs),
      cpuMsPerCall: perCall.byProcess[main] ?? NaN,
      processCpuMsPerCall: perCall.byProcess,
      totalCpuMsPerCall: perCall.total,
      redisCpuMsPerCall,
      redisCommandsPerCall,
      errors: errorCount(result),
      errorsByStatus: result.errors,
    },
  };
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

function renderTables(
  figures: Record<string, Record<string, KindFigures>>,
  labels: Record<string, string>,
  kinds: readonly { label: string }[],
): string {
  const floor = figures.A;
  const lines: string[] = [];
  for (const { label } of kinds) {
    lines.push(
      '',
      `Chat Completions, ${label}:`,
      '',
      '| target | calls/s at saturation | CPU ms per call (process) | CPU ms per call, every process | Redis CPU ms per call | Redis commands per call | ' +
        RATES.map((rate) => `added p50 / p99 at ${rate}/s (ms)`).join(' | ') +
        ' | errors |',
      `|---|--:|--:|---|--:|--:|${RATES.map(() => '--:|').join('')}--:|`,
    );
    for (const [key, byKind] of Object.entries(figures)) {
      const id = key.split('.')[0] ?? key;
      const one = byKind[label];
      if (one === undefined) continue;
      const added = one.rates.map((entry, index) => {
        const base = floor?.[label]?.rates[index];
        if (id === 'A' || base === undefined)
          return `${entry.p50.toFixed(2)} / ${entry.p99.toFixed(2)}${id === 'A' ? ' (floor)' : ' (absolute)'}`;
        const reached = entry.achieved < entry.rate * 0.95 ? ` (reached ${entry.achieved}/s)` : '';
        return `${signed(entry.p50 - base.p50)} / ${signed(entry.p99 - base.p99)}${reached}`;
      });
      const s = one.saturation;
      const every = `${s.totalCpuMsPerCall.toFixed(3)} (${Object.entries(s.processCpuMsPerCall)
        .map(([name, value]) => `${name} ${value.toFixed(3)}`)
        .join(', ')})`;
      const errors = s.errors + one.rates.reduce((sum, entry) => sum + entry.errors, 0);
      lines.push(
        `| ${labels[id] ?? id} | ${s.callsPerSecond} | ${s.cpuMsPerCall.toFixed(3)} | ${every} | ${s.redisCpuMsPerCall === null ? 'n/a' : s.redisCpuMsPerCall.toFixed(3)} | ${s.redisCommandsPerCall === null ? 'n/a' : s.redisCommandsPerCall.toFixed(1)} | ${added.join(' | ')} | ${errors} |`,
      );
    }
  }
  return lines.join('\n');
}

function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : value.toFixed(1);
}

/**
 * The tail at each rate, target by target (round by round with `--repeat`): p99, p99 minus the bare
 * pass-through's of the same round, how late the load generator sent its calls, and what the
 * server's event loop went through meanwhile.
 */
function renderTail(
  figures: Record<string, Record<string, KindFigures>>,
  kinds: readonly { label: string }[],
): string {
  const lines: string[] = [];
  for (const { label } of kinds) {
    lines.push(
      '',
      `Tail, ${label}:`,
      '',
      '| target | rate | p50 / p99 (ms) | p99 minus B (ms) | sender late p99 / max (ms) | loop delay p50 / p99 / max (ms) | GC pauses / ms / over 10 ms | GC ms by kind | errors |',
      '|---|--:|--:|--:|--:|--:|--:|---|--:|',
    );
    for (const [key, byKind] of Object.entries(figures)) {
      const one = byKind[label];
      if (one === undefined) continue;
      const [id = '', round] = key.split('.');
      const bare = figures[round === undefined ? 'B' : `B.${round}`]?.[label];
      one.rates.forEach((entry, index) => {
        const base = bare?.rates[index];
        const minus = base === undefined || id === 'B' ? 'n/a' : signed(entry.p99 - base.p99);
        const loop = entry.loop;
        const late = entry.sendLate;
        lines.push(
          `| ${key} | ${entry.rate} | ${entry.p50.toFixed(2)} / ${entry.p99.toFixed(2)} | ${minus} | ${
            late === undefined ? 'n/a' : `${ms(late.p99Ms)} / ${ms(late.maxMs)}`
          } | ${
            loop === undefined
              ? 'n/a'
              : `${ms(loop.delayP50Ms)} / ${ms(loop.delayP99Ms)} / ${ms(loop.delayMaxMs)}`
          } | ${loop === undefined ? 'n/a' : `${loop.gcPauses} / ${loop.gcMs.toFixed(1)} / ${loop.gcOver10ms}`} | ${
            loop === undefined
              ? 'n/a'
              : Object.entries(loop.gcMsByKind)
                  .map(([kind, value]) => `${kind} ${value.toFixed(1)}`)
                  .join(', ')
          } | ${entry.errors} |`,
        );
      });
    }
  }
  return lines.join('\n');
}

const LABELS: Record<SideBySideTarget, string> = {
  A: 'A: clients straight to the mock upstream (floor)',
  B: 'B: bare node:http + undici pass-through',
  D: 'D: Tollgate, Redis, every feature on (1 worker, seeded)',
  E: 'E: tollgate gateway as deployed (operator, recorder, PostgreSQL, same Redis)',
  F: 'F: tollgate local as npm start runs it (memory store, embedded ledger)',
};

export async function runSideBySide(
  quick: boolean,
  targets: readonly SideBySideTarget[] = ['A', 'B', 'D', 'E', 'F'],
  targetsGiven = false,
  /**
   * `--repeat N`: the targets N times over, alternating; `--kinds streamed`: one kind only;
   * `--tail-only`: the rates without the saturation window.
   */
  options: { repeat?: number; kinds?: readonly string[]; tailOnly?: boolean } = {},
): Promise<void> {
  const tailOnly = options.tailOnly ?? false;
  const repeat = Math.max(1, options.repeat ?? 1);
  const kindsGiven = options.kinds;
  const kinds =
    kindsGiven === undefined
      ? KINDS
      : KINDS.filter((one) => kindsGiven.includes(one.label.split(' ')[0] ?? ''));
  const deadline = setTimeout(
    () => {
      process.stderr.write('side-by-side: hard deadline reached, stopping\n');
      process.exit(2);
    },
    (10 + 4 * targets.length * repeat) * 60_000,
  );
  const loadAtStart = loadavg();
  const { commit, machine } = describeBenchFacts('bench/macro/side-by-side.ts');
  const layout = await startSideBySideLayout();
  const { pinning, loadgen, redisServer, environment } = layout;
  const figures: Record<string, Record<string, KindFigures>> = {};
  try {
    for (let round = 1; round <= repeat; round++) {
      for (const id of targets) {
        const key = repeat > 1 ? `${id}.${round}` : id;
        process.stdout.write(
          `side-by-side: ${new Date().toISOString()} measuring ${LABELS[id]}${repeat > 1 ? ` (round ${round})` : ''}\n`,
        );
        let started: Measured & { stop(): Promise<void> };
        if (id === 'E' || id === 'F') {
          const system: StartedSystem =
            id === 'E'
              ? await startDeployedTarget({
                  upstreamUrl: environment.providerUrl,
                  redisUrl: redisServer.url,
                  cpus: environment.gatewayCpus,
                  sidecarCpus: pinning?.rest ?? null,
                })
              : await startLocalTarget({
                  upstreamUrl: environment.providerUrl,
                  cpus: environment.gatewayCpus,
                });
          started = system;
        } else {
          const one = await startBenchTarget(
            { id, scenario: id, label: LABELS[id], workers: 1, hold: false, crossCheck: false },
            environment,
          );
          const name = id === 'A' ? 'upstream' : id === 'B' ? 'proxy' : 'gateway';
          started = { ...one, pids: { [name]: one.pid } };
        }
        const redis = id === 'D' || id === 'E' ? new Redis(redisServer.url) : null;
        try {
          const byKind: Record<string, KindFigures> = {};
          for (const { label, kind } of kinds) {
            byKind[label] = await measureKind({
              loadgen,
              target: started,
              kind,
              redis,
              quick,
              tailOnly,
            });
          }
          figures[key] = byKind;
        } finally {
          redis?.disconnect();
          await started.stop();
        }
      }
    }
    const facts = {
      date: new Date().toISOString(),
      command: sideBySideCommand(quick, targetsGiven ? targets : null, {
        repeat,
        tailOnly,
        kinds: kindsGiven === undefined ? null : kinds.map((one) => one.label.split(' ')[0] ?? ''),
      }),
      commit,
      machine,
      targets,
      cpus: availableParallelism(),
      pinning:
        pinning === null
          ? 'none'
          : `server and its Redis on CPU ${pinning.server}; load generator and upstream on ${pinning.rest} (E: with its operator, recorder, control plane and database backends at the idle policy)`,
      loadAverageAtStart: loadAtStart.map((value) => Math.round(value * 100) / 100),
      loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
      node: process.version,
    };
    // The time too, so a second run of the day does not overwrite the first.
    const time = facts.date.slice(11, 16).replace(':', '');
    const shape = `${targetsGiven ? `-${targets.join('')}` : ''}${repeat > 1 ? `-x${repeat}` : ''}${kindsGiven === undefined ? '' : `-${kindsGiven.join('')}`}${tailOnly ? '-tail' : ''}`;
    const file = `bench/results/${facts.date.slice(0, 10)}-side-by-side${shape}${quick ? '-quick' : ''}-${time}.json`;
    mkdirSync(root('bench/results'), { recursive: true });
    writeFileSync(root(file), `${JSON.stringify({ facts, figures }, null, 2)}\n`);
    process.stdout.write(
      `${JSON.stringify(facts)}\n${tailOnly ? '' : renderTables(figures, LABELS, kinds)}\n${renderTail(figures, kinds)}\n`,
    );
    process.stdout.write(`side-by-side: wrote ${file}\n`);
    // Experiments (`--repeat`, `--kinds`, `--tail-only`) are kept in bench/results only.
    const experiment = repeat > 1 || kindsGiven !== undefined || tailOnly;
    if (!experiment) {
      for (const written of updateBenchSummaries())
        process.stdout.write(`bench: wrote ${written}\n`);
    }
  } finally {
    clearTimeout(deadline);
    await layout.stop();
  }
}
