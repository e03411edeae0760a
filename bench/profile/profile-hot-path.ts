/**
 * `npx tsx bench/profile/profile-hot-path.ts <label> [non-streamed|streamed] [seconds] [--tracing] [-- node flags]`: the side-by-side
 * layout's Tollgate (private Redis, every admission feature on, one worker) driven with Chat
 * Completions calls in a closed loop of 64 callers against the minimal upstream, profiled by V8's
 * sampler for the given seconds after a warm-up. Writes the summary (self time by area and by
 * function, CPU ms per call of the gateway process and of Redis, Redis's execution time per call
 * split into the scripts' own and their commands') to
 * `bench/results/profiles/hot-path-<label>-<kind>.json` and prints it; the raw `.cpuprofile` goes
 * to the temporary directory only (it is large). With `--tracing`, the gateway traces every call
 * and exports to a local OTLP/HTTP sink (start-otlp-sink.ts); compare-tracing-cost.ts compares.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { readProcessStats } from '../support/read-process-stats.js';
import {
  countCommands,
  parseCommandMicroseconds,
  parseCommandStats,
  readRedisCpuSeconds,
  readRedisSocketCounts,
  splitScriptTimes,
} from '../support/read-redis-commandstats.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startOtlpSink } from '../support/start-otlp-sink.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
} from '../support/start-side-by-side-layout.js';
import { summarizeCpuProfile, type CpuProfile } from './summarize-cpu-profile.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';

const tracing = process.argv.includes('--tracing');
const args = process.argv.filter((arg) => arg !== '--tracing');
const label = args[2] ?? 'run';
const kindName = args[3] === 'streamed' ? 'streamed' : 'non-streamed';
const seconds = Number(args[4] ?? 5);
/** Node flags for Tollgate's process (after `--`), e.g. heap sizes. */
const nodeFlags = args.slice(5).filter((flag) => flag !== '--');
const kind: BenchRequestKind = { platform: 'openai', stream: kindName === 'streamed', chat: true };

async function main(): Promise<void> {
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  const facts = describeBenchFacts('bench/profile/profile-hot-path.ts');
  const layout = await startSideBySideLayout({ gatewayNodeFlags: nodeFlags });
  const { loadgen, redisServer } = layout;
  const sink = tracing ? await startOtlpSink() : null;
  const started = await startBenchTarget(
    { id: 'D1', scenario: 'D', label: 'D', workers: 1, hold: false, crossCheck: false },
    sink === null ? layout.environment : { ...layout.environment, otlpEndpoint: sink.url },
  );
  const redis = new Redis(redisServer.url);
  const drive = async (durationMs: number): Promise<number> => {
    const result = await driveLoad(loadgen, {
      url: started.url,
      kind,
      credentials: started.credentials,
      load: { mode: 'closed', concurrency: 64, durationMs },
    });
    const errors = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
    if (errors > 0) process.stderr.write(`errors: ${JSON.stringify(result.errors)}\n`);
    return answeredCalls(result);
  };
  const redisCpu = (): Promise<number> => readRedisCpuSeconds(redis);
  try {
    await drive(3_000);
    // Unprofiled measurement first: the sampler itself costs CPU.
    await redis.config('RESETSTAT');
    const statsBefore = readProcessStats(started.pid);
    const redisBefore = await redisCpu();
    const answered = await drive(seconds * 1000);
    const statsAfter = readProcessStats(started.pid);
    const cpuMsPerCall = ((statsAfter.cpuSeconds - statsBefore.cpuSeconds) * 1000) / answered;
    const systemMsPerCall =
      ((statsAfter.systemSeconds - statsBefore.systemSeconds) * 1000) / answered;
    const redisCpuMsPerCall = (((await redisCpu()) - redisBefore) * 1000) / answered;
    const commandStats = await redis.info('commandstats');
    const commands = countCommands(parseCommandStats(commandStats));
    const commandTimes = parseCommandMicroseconds(commandStats);
    const scriptTimes = splitScriptTimes(commandTimes);
    const perCall = (usec: number): number => Math.round((usec / answered) * 100) / 100;
    const sockets = await readRedisSocketCounts(redis);
    const path = join(tmpdir(), `hot-path-${label}-${kindName}.cpuprofile`);
    await started.child?.ask({ type: 'profile-start' }, 10_000);
    const profiled = await drive(seconds * 1000);
    await started.child?.ask({ type: 'profile-stop', path }, 30_000);
    const summary = summarizeCpuProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, 30);
    const report = {
      facts,
      date: new Date().toISOString(),
      label,
      kind: kindName,
      loadAverageAtStart: load,
      nodeFlags,
      tracing,
      unprofiled: {
        calls: answered,
        callsPerSecond: Math.round(answered / seconds),
        cpuMsPerCall: Math.round(cpuMsPerCall * 1000) / 1000,
        systemCpuMsPerCall: Math.round(systemMsPerCall * 1000) / 1000,
        redisCpuMsPerCall: Math.round(redisCpuMsPerCall * 1000) / 1000,
        redisCommandsPerCall: Math.round((commands.total / answered) * 100) / 100,
        redisReadsPerCall: Math.round((sockets.reads / answered) * 100) / 100,
        redisWritesPerCall: Math.round((sockets.writes / answered) * 100) / 100,
        // Redis's execution time per call (µs): the script calls (their commands included), the
        // commands, and the scripts' own (arguments, Lua, calling each command and reading its
        // reply); then each command's.
        redisMicrosecondsPerCall: {
          scripts: perCall(scriptTimes.scripts),
          commands: perCall(scriptTimes.commands),
          scriptsOwn: perCall(scriptTimes.scriptsOwn),
          byCommand: Object.fromEntries(
            [...commandTimes].map(([command, usec]) => [command, perCall(usec)]),
          ),
        },
      },
      profiled: { calls: profiled, busyMsPerCall: summary.busyMs / profiled },
      summary,
    };
    const folder = fileURLToPath(new URL('../results/profiles/', import.meta.url));
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `hot-path-${label}-${kindName}.json`),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    updateBenchSummaries();
    process.stdout.write(`${JSON.stringify(report.unprofiled)}\n`);
    for (const one of summary.areas)
      process.stdout.write(`area ${one.ms.toFixed(0)} ${one.name}\n`);
    for (const one of summary.functions)
      process.stdout.write(
        `fn ${one.ms.toFixed(0)} ${(one.share * 100).toFixed(1)}% ${one.name}\n`,
      );
  } finally {
    redis.disconnect();
    await started.stop();
    await sink?.close();
    await layout.stop();
  }
}

await main();
