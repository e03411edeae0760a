/**
 * `npx tsx bench/profile/count-call-instructions.ts [non-streamed|streamed|both] [rounds] [seconds] [--concurrency N] [--warm-up S] [--targets B,D] [--keep]`:
 * user-space instructions per call of the bare pass-through (B) and Tollgate (D, every admission
 * feature on, private Redis), each run under `valgrind --tool=callgrind`: counts that do not
 * depend on how busy the machine is, though a round still moves with V8's collections and
 * compilations (docs/benchmarks.md gives how much).
 *
 * Each target starts uninstrumented and is warmed up for `--warm-up` seconds (60; so V8 has
 * compiled the hot path); then callgrind counts an idle window (the process's own timers, taken
 * out of each round by their rate) and `rounds` closed-loop rounds of `seconds` each at
 * `--concurrency` callers (4), per thread: the main thread and every thread. Kernel time
 * (system calls) is not counted: `count-hot-path-syscalls.ts` counts those. `--keep` leaves the
 * dumps for `callgrind_annotate`. Needs valgrind (`apt-get install -y valgrind`). Prints each
 * round, the medians and D over B, and writes the raw result (`call-instructions`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { instructionsPerCall, readCallgrindTotal } from '../support/read-callgrind-dump.js';
import { startBenchTarget, type StartedTarget } from '../support/start-bench-target.js';
import { startBenchRun } from '../support/write-bench-result.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
  type SideBySideLayout,
} from '../support/start-side-by-side-layout.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
/** Flags followed by a value; `--keep` takes none. */
const VALUED = new Set(['--concurrency', '--warm-up', '--targets']);
const positional = args.filter(
  (arg, index) => !arg.startsWith('--') && !VALUED.has(args[index - 1] ?? ''),
);
const kindNames =
  positional[0] === 'streamed' || positional[0] === 'non-streamed'
    ? [positional[0]]
    : ['non-streamed', 'streamed'];
const rounds = Number(positional[1] ?? 3);
const seconds = Number(positional[2] ?? 10);
const concurrency = Number(flag('--concurrency') ?? 4);
const targets = (flag('--targets') ?? 'B,D').split(',') as ('B' | 'D')[];
const keep = args.includes('--keep');
const WARM_UP_MS = Number(flag('--warm-up') ?? 60) * 1000;
const IDLE_MS = 5_000;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

interface Counts {
  /** The main thread's instructions: JavaScript, the event loop, scavenges run there. */
  main: number;
  /** Every thread's: also V8's compiler, concurrent marking and sweeping, libuv's pool. */
  all: number;
}

/** Sends a command to the callgrind of `pid`; for a dump, returns its totals by thread. */
function callgrind(pid: number, command: '-i on' | '-z' | '-d', folder: string): Counts {
  const written = new Set(readdirSync(folder));
  execFileSync('callgrind_control', [...command.split(' '), String(pid)], { stdio: 'ignore' });
  if (command !== '-d') return { main: 0, all: 0 };
  // With --separate-threads=yes a dump is one file per thread: cg.<pid>.<n>-<thread>.
  const dumps = readdirSync(folder).filter(
    (name) => name.startsWith(`cg.${pid}.`) && !written.has(name),
  );
  if (dumps.length === 0) throw new Error(`callgrind of ${pid} wrote no dump`);
  const counts = { main: 0, all: 0 };
  for (const name of dumps) {
    const total = readCallgrindTotal(readFileSync(join(folder, name), 'utf8'));
    counts.all += total;
    if (name.endsWith('-01')) counts.main += total;
  }
  return counts;
}

async function measure(
  layout: SideBySideLayout,
  scenario: 'B' | 'D',
  kind: BenchRequestKind,
  folder: string,
): Promise<Counts[]> {
  const environment = {
    ...layout.environment,
    serverWrapper: {
      command: [
        'valgrind',
        '--tool=callgrind',
        '--instr-atstart=no',
        '--separate-threads=yes',
        `--callgrind-out-file=${join(folder, 'cg.%p')}`,
      ],
      readyTimeoutMs: 300_000,
    },
  };
  const target: StartedTarget = await startBenchTarget(
    { id: `${scenario}1`, scenario, label: scenario, workers: 1, hold: false, crossCheck: false },
    environment,
  );
  const drive = async (durationMs: number): Promise<{ calls: number; seconds: number }> => {
    const started = performance.now();
    const result = await driveLoad(layout.loadgen, {
      url: target.url,
      kind,
      credentials: target.credentials,
      load: { mode: 'closed', concurrency, durationMs },
    });
    return { calls: answeredCalls(result), seconds: (performance.now() - started) / 1000 };
  };
  try {
    const warm = await drive(WARM_UP_MS);
    process.stdout.write(
      `${scenario} warm-up: ${warm.calls} calls in ${warm.seconds.toFixed(1)} s\n`,
    );
    callgrind(target.pid, '-i on', folder);
    await drive(3_000);
    callgrind(target.pid, '-z', folder);
    const idleStarted = performance.now();
    await sleep(IDLE_MS);
    const idle = callgrind(target.pid, '-d', folder);
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const perCall: Counts[] = [];
    for (let round = 0; round < rounds; round++) {
      callgrind(target.pid, '-z', folder);
      const { calls, seconds: took } = await drive(seconds * 1000);
      const counted = callgrind(target.pid, '-d', folder);
      const per = (thread: keyof Counts): number =>
        instructionsPerCall(
          { instructions: counted[thread], seconds: took, calls },
          idle[thread] / idleSeconds,
        );
      perCall.push({ main: per('main'), all: per('all') });
      process.stdout.write(
        `${scenario} round ${round + 1}: ${calls} calls in ${took.toFixed(1)} s, instructions per call: main thread ${Math.round(per('main'))}, every thread ${Math.round(per('all'))} (idle per second ${Math.round(idle.main / idleSeconds)} / ${Math.round(idle.all / idleSeconds)})\n`,
      );
    }
    return perCall;
  } finally {
    await target.stop();
  }
}

const summarize = (perCall: readonly Counts[], thread: keyof Counts) => {
  const values = perCall.map((figures) => Math.round(figures[thread]));
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
};

async function main(): Promise<void> {
  const run = startBenchRun('call-instructions', 'bench/profile/count-call-instructions.ts');
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-callgrind-'));
  const layout = await startSideBySideLayout();
  const kinds: Record<string, unknown>[] = [];
  try {
    for (const kindName of kindNames) {
      const kind: BenchRequestKind = {
        platform: 'openai',
        stream: kindName === 'streamed',
        chat: true,
      };
      const targetFigures: Record<string, unknown> = {};
      const medians = new Map<string, Counts>();
      for (const scenario of targets) {
        const perCall = await measure(layout, scenario, kind, folder);
        const main = summarize(perCall, 'main');
        const all = summarize(perCall, 'all');
        medians.set(scenario, { main: main.median, all: all.median });
        targetFigures[scenario] = { rounds: perCall, mainThread: main, everyThread: all };
        process.stdout.write(
          `${kindName} ${scenario}: instructions per call, median: main thread ${main.median} (${main.min}-${main.max}), every thread ${all.median} (${all.min}-${all.max})\n`,
        );
      }
      const bare = medians.get('B');
      const tollgate = medians.get('D');
      const ratio =
        bare === undefined || tollgate === undefined
          ? null
          : {
              mainThread: Math.round((tollgate.main / bare.main) * 100) / 100,
              everyThread: Math.round((tollgate.all / bare.all) * 100) / 100,
            };
      if (ratio !== null)
        process.stdout.write(
          `${kindName} D/B: main thread ${ratio.mainThread}, every thread ${ratio.everyThread}\n`,
        );
      kinds.push({ kind: kindName, targets: targetFigures, tollgateOverBare: ratio });
    }
  } finally {
    await layout.stop();
    if (keep)
      process.stdout.write(`callgrind dumps kept in ${folder} (callgrind_annotate <dump>)\n`);
    else rmSync(folder, { recursive: true, force: true });
  }
  run.write({
    settings: { rounds, seconds, concurrency, warmUpSeconds: WARM_UP_MS / 1000 },
    kinds,
  });
}

await main();
