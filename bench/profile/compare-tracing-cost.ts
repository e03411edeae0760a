/**
 * `nice -n -10 npx tsx bench/profile/compare-tracing-cost.ts <label> [non-streamed|streamed] [seconds] [pairs]`:
 * the gateway's CPU per call with tracing off and on, alternated. The side-by-side layout's
 * Tollgate (private Redis, every admission feature on, one worker) is started `pairs` times (3 by
 * default) without and with `--otlp-endpoint` (every call sampled: a server span and a client
 * span, exported to a local OTLP/HTTP sink that only reads the bodies), each driven with Chat
 * Completions calls in a closed loop of 64 callers, a warm-up and then `seconds` measured (10 by
 * default). Writes each run, the ranges and the ratio of the medians to
 * `bench/results/profiles/tracing-cost-<label>-<kind>.json` and prints them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startOtlpSink } from '../support/start-otlp-sink.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
} from '../support/start-side-by-side-layout.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';

const label = process.argv[2] ?? 'run';
const kindName = process.argv[3] === 'streamed' ? 'streamed' : 'non-streamed';
const seconds = Number(process.argv[4] ?? 10);
const pairs = Number(process.argv[5] ?? 3);
const kind: BenchRequestKind = { platform: 'openai', stream: kindName === 'streamed', chat: true };

interface Run {
  tracing: boolean;
  calls: number;
  callsPerSecond: number;
  cpuMsPerCall: number;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  const layout = await startSideBySideLayout();
  const sink = await startOtlpSink();
  const runs: Run[] = [];
  try {
    for (let pair = 0; pair < pairs; pair++) {
      for (const tracing of [false, true]) {
        const started = await startBenchTarget(
          { id: 'D1', scenario: 'D', label: 'D', workers: 1, hold: false, crossCheck: false },
          tracing ? { ...layout.environment, otlpEndpoint: sink.url } : layout.environment,
        );
        try {
          const drive = async (durationMs: number): Promise<number> => {
            const result = await driveLoad(layout.loadgen, {
              url: started.url,
              kind,
              credentials: started.credentials,
              load: { mode: 'closed', concurrency: 64, durationMs },
            });
            const errors = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
            if (errors > 0) process.stderr.write(`errors: ${JSON.stringify(result.errors)}\n`);
            return answeredCalls(result);
          };
          await drive(3_000);
          const before = readProcessStats(started.pid);
          const calls = await drive(seconds * 1000);
          const after = readProcessStats(started.pid);
          const run: Run = {
            tracing,
            calls,
            callsPerSecond: Math.round(calls / seconds),
            cpuMsPerCall: round(((after.cpuSeconds - before.cpuSeconds) * 1000) / calls),
          };
          runs.push(run);
          process.stdout.write(`${JSON.stringify(run)}\n`);
        } finally {
          await started.stop();
        }
      }
    }
    const of = (tracing: boolean) =>
      runs.filter((run) => run.tracing === tracing).map((run) => run.cpuMsPerCall);
    const off = of(false);
    const on = of(true);
    const report = {
      date: new Date().toISOString(),
      label,
      kind: kindName,
      seconds,
      loadAverageAtStart: load,
      runs,
      cpuMsPerCall: {
        off: { min: Math.min(...off), median: median(off), max: Math.max(...off) },
        on: { min: Math.min(...on), median: median(on), max: Math.max(...on) },
      },
      ratioOfMedians: round(median(on) / median(off)),
      sink: { exports: sink.exports, bytes: sink.bytes },
    };
    const folder = fileURLToPath(new URL('../results/profiles/', import.meta.url));
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `tracing-cost-${label}-${kindName}.json`),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    updateBenchSummaries();
    process.stdout.write(
      `${JSON.stringify({ cpuMsPerCall: report.cpuMsPerCall, ratio: report.ratioOfMedians })}\n`,
    );
  } finally {
    await sink.close();
    await layout.stop();
  }
}

await main();
