/**
 * `npx tsx bench/profile/find-loop-stalls.ts [rates] [seconds] [--streamed] [--threshold MS] [--interval US] [--trace-gc] [--root DIR] [--keep DIR] [-- node flags]`:
 * what holds `tollgate local`'s event loop under load. Runs probe-local-mode.ts (`rates`, 200,500 by
 * default, `seconds` each, 10 by default; `--root` another checkout) with V8's sampler on
 * (`--cpu-prof`, one sample per `--interval` µs, 1000 by default), then reads the main thread's
 * profile over each load only and prints the windows in which the thread never went back to its
 * poll for longer than `--threshold` ms (10 by default; find-stall-windows.ts): how many, how much
 * of the load they cover, the longest with what filled them, and over all of them the functions,
 * the frames they ran under and the garbage collector's share; for each window and each load, how
 * long the worker threads (the embedded ledger's) ran meanwhile; with `--trace-gc`, V8's own
 * account of the main thread's collections during each load (`--trace-gc-nvp`: scavenges, their
 * pauses, bytes kept and promoted; mark-compacts). The sampler slows the process:
 * the probe's latencies in this run are not local mode's. The summary goes to
 * `bench/results/profiles/loop-stalls-<date>T<time>.json`; the profiles (tens of MB) to a temporary
 * folder, removed at the end (kept in `--keep DIR` when given, for DevTools or another look).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  busyMsBetween,
  findStallWindows,
  type StallProfile,
  type StallReport,
} from './find-stall-windows.js';
import { selectGcTraceLines } from './select-gc-trace-lines.js';
import { summarizeGcTrace, type GcTraceSummary } from './summarize-gc-trace.js';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes === -1 ? args : args.slice(0, dashes);
const extraFlags = dashes === -1 ? [] : args.slice(dashes + 1);
const valueOf = (name: string): string | undefined => {
  const at = own.indexOf(name);
  return at === -1 ? undefined : own[at + 1];
};
const valued = new Set(['--threshold', '--interval', '--root', '--keep']);
const positional = own.filter(
  (arg, index) => !arg.startsWith('--') && !valued.has(own[index - 1] ?? ''),
);
const rates = positional[0] ?? '200,500';
const seconds = positional[1] ?? '10';
const thresholdMs = Number(valueOf('--threshold') ?? 10);
const intervalUs = Number(valueOf('--interval') ?? 1000);
const root = valueOf('--root');
const traceGc = own.includes('--trace-gc');

const keep = valueOf('--keep');
if (keep !== undefined) mkdirSync(keep, { recursive: true });
const profiles = mkdtempSync(join(keep ?? tmpdir(), 'loop-stalls-'));
const childLog = join(profiles, 'local.log');
const removeProfiles = (): void => {
  if (keep === undefined) rmSync(profiles, { recursive: true, force: true });
};
const probeArgs = [
  '--import',
  'tsx',
  join(repository, 'bench/macro/probe-local-mode.ts'),
  rates,
  seconds,
  ...(root === undefined ? [] : ['--root', root]),
  ...(own.includes('--streamed') ? ['--streamed'] : []),
  ...(traceGc ? ['--child-log', childLog] : []),
  '--',
  '--cpu-prof',
  `--cpu-prof-dir=${profiles}`,
  `--cpu-prof-interval=${String(intervalUs)}`,
  ...(traceGc ? ['--trace-gc-nvp'] : []),
  ...extraFlags,
];
const probe = spawn(process.execPath, probeArgs, {
  cwd: repository,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let resultPath: string | undefined;
const onLine = (line: string): void => {
  process.stdout.write(`probe: ${line}\n`);
  const written = /bench: wrote (\S+-local-mode-profiled\.json)/.exec(line);
  if (written?.[1] !== undefined) resultPath = written[1];
};
createInterface({ input: probe.stdout }).on('line', onLine);
createInterface({ input: probe.stderr }).on('line', onLine);
const code = await new Promise<number | null>((done) => probe.once('exit', done));
if (code !== 0 || resultPath === undefined) {
  removeProfiles();
  throw new Error(`the probe failed (exit ${String(code)})`);
}
const result = JSON.parse(readFileSync(join(repository, resultPath), 'utf8')) as {
  spawnedUs: number;
  rates: { rate: number; answered: number; loadWindowUs: [number, number] }[];
};
const childLines = traceGc ? readFileSync(childLog, 'utf8').split('\n') : [];
// `CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile`: thread 0 is the main thread, the
// others are workers (the embedded ledger's among them).
const threads = new Map<string, StallProfile>();
for (const name of readdirSync(profiles).filter((file) => file.endsWith('.cpuprofile'))) {
  const thread = name.split('.')[4] ?? name;
  threads.set(thread, JSON.parse(readFileSync(join(profiles, name), 'utf8')) as StallProfile);
}
removeProfiles();
const profile = threads.get('0');
if (profile === undefined) throw new Error('no main-thread profile');
const workers = [...threads.entries()].filter(([thread]) => thread !== '0');
/** Each worker thread's busy ms between two times, `thread N 12.3`. */
const workersBusy = (fromUs: number, toUs: number): string =>
  workers
    .map(([thread, worker]) => `thread ${thread} ${busyMsBetween(worker, fromUs, toUs).toFixed(1)}`)
    .join(', ');

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const list = (shares: { name: string; ms: number }[], count: number): string =>
  shares
    .slice(0, count)
    .map((share) => `${share.name} ${share.ms.toFixed(1)}`)
    .join('; ');
/** Callers without Node's own frames (in every stack of a callback), which tell little of the cause. */
const ownFrames = (callers: { name: string; ms: number }[]): { name: string; ms: number }[] =>
  callers.filter((caller) => !caller.name.includes(' node:'));
const reports: (StallReport & { rate: number; gc: GcTraceSummary | null })[] = [];
for (const { rate, answered, loadWindowUs } of result.rates) {
  const report = findStallWindows(profile, {
    thresholdMs,
    fromUs: loadWindowUs[0],
    toUs: loadWindowUs[1],
    limit: 40,
  });
  const gc = traceGc
    ? summarizeGcTrace(
        selectGcTraceLines(childLines, {
          spawnedUs: result.spawnedUs,
          fromUs: loadWindowUs[0],
          toUs: loadWindowUs[1],
        }),
        answered,
      )
    : null;
  reports.push({ rate, ...report, gc });
  const longest = [...report.stalls].sort((left, right) => right.ms - left.ms);
  say(
    `\n${String(rate)}/s: ${(report.coveredMs / 1000).toFixed(1)} s, busy ` +
      `${((100 * report.busyMs) / Math.max(1, report.coveredMs)).toFixed(1)} %; ` +
      `${String(report.stalls.length)} windows over ${String(thresholdMs)} ms, ` +
      `${report.stalledMs.toFixed(0)} ms in all (longest ` +
      `${longest
        .slice(0, 5)
        .map((stall) => stall.ms.toFixed(1))
        .join(', ')}), ` +
      `garbage collector ${report.garbageCollectorMs.toFixed(1)} ms of them (longest pause ` +
      `${report.longestCollectionMs.toFixed(1)}), gaps ${report.gapMs.toFixed(1)} ms; ` +
      `workers busy over the load (ms): ${workersBusy(loadWindowUs[0], loadWindowUs[1])}`,
  );
  if (gc !== null) {
    say(
      `  V8's trace: ${String(gc.scavenges)} scavenges every ${String(gc.scavengeIntervalMs)} ms, ` +
        `pause mean ${gc.scavengePauseMs.mean.toFixed(1)} ms max ${gc.scavengePauseMs.max.toFixed(1)}, ` +
        `${gc.survivedKbPerScavenge.toFixed(0)} KB kept and ${gc.promotedKbPerScavenge.toFixed(0)} KB ` +
        `promoted per scavenge; ${String(gc.markCompacts)} mark-compacts, ` +
        `${gc.markCompactPauseMs.toFixed(1)} ms of pauses`,
    );
  }
  say(`  self time in them: ${list(report.functions, 8)}`);
  say(`  under: ${list(ownFrames(report.callers), 12)}`);
  for (const stall of longest.slice(0, 5)) {
    const fromUs = profile.startTime + stall.atMs * 1000;
    say(
      `  at ${(stall.atMs / 1000).toFixed(2)} s, ${stall.ms.toFixed(1)} ms (GC ` +
        `${stall.garbageCollectorMs.toFixed(1)}, longest ${stall.longestCollectionMs.toFixed(1)}; ` +
        `gaps ${stall.gapMs.toFixed(1)}; workers ${workersBusy(fromUs, fromUs + stall.ms * 1000)}): ` +
        `${list(stall.functions, 3)} | under ${list(ownFrames(stall.callers), 6)}`,
    );
  }
}
const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
const out = join(repository, 'bench/results/profiles', `loop-stalls-${stamp}.json`);
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      parameters: { rates, seconds, thresholdMs, intervalUs, root: root ?? repository },
      loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
      probeResult: resultPath,
      rates: reports,
    },
    null,
    2,
  )}\n`,
);
say(`\nwrote ${out}`);
