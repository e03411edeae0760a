/**
 * `npx tsx bench/macro/probe-tail.ts [rate] [seconds] [non-streamed|streamed] [bare] [-- node flags for Tollgate]`: the side-by-side
 * layout's Tollgate (private Redis, every admission feature, one worker, pinned with its Redis)
 * under an open loop of Chat Completions calls at `rate` per second, run with
 * `--trace-gc` and the given flags. Prints the latency percentiles,
 * Tollgate's event-loop delay during the loop and its calls' durations as it saw them (`calls`:
 * arrival to the response's end; `upstream`: the wait for the upstream's head), the CPU the
 * loop cost (gateway and Redis per call, and how busy their shared core was), Redis's own stalls of 2 ms or more (`LATENCY`), and
 * every garbage-collection pause (`--trace-gc`), so a tail can be matched to what stalled.
 * With `bare`, the bare pass-through (scenario B) takes Tollgate's place, on the same core: its
 * latencies and CPU per call only. Nothing is written.
 */
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { readCpuTicks, readProcessStats } from '../support/read-process-stats.js';
import { readRedisCpuSeconds } from '../support/read-redis-commandstats.js';
import type { LoadResult } from '../support/run-load-modes.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { driveLoad, startSideBySideLayout } from '../support/start-side-by-side-layout.js';

const [rateText = '1000', secondsText = '8', kindText = 'non-streamed', ...rest] =
  process.argv.slice(2);
const bare = rest.includes('bare');
const flags = rest.filter((flag) => flag !== '--' && flag !== 'bare');
const rate = Number(rateText);
const seconds = Number(secondsText);
const kind: BenchRequestKind = { platform: 'openai', stream: kindText === 'streamed', chat: true };

process.stdout.write(
  `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}\n`,
);
// The gateway reports its calls' durations (bench/profile/record-loop-delay.ts).
process.env.TOLLGATE_BENCH_RECORD_CALLS = '1';
const layout = await startSideBySideLayout({ gatewayNodeFlags: ['--trace-gc', ...flags] });
const { loadgen } = layout;
const redis = new Redis(layout.redisServer.url);
const started = await startBenchTarget(
  bare
    ? { id: 'B1', scenario: 'B', label: 'B', workers: 1, hold: false, crossCheck: false }
    : { id: 'D1', scenario: 'D', label: 'D', workers: 1, hold: false, crossCheck: false },
  layout.environment,
);
// The bare pass-through answers no IPC questions.
const ask = (type: string): Promise<unknown> =>
  bare ? Promise.resolve(null) : (started.child?.ask({ type }, 5_000) ?? Promise.resolve(null));
const drive = (load: Record<string, unknown>): Promise<LoadResult> =>
  driveLoad(loadgen, { url: started.url, kind, credentials: started.credentials, load });
try {
  await drive({ mode: 'closed', concurrency: 16, durationMs: 2_000 });
  process.stdout.write(`--- open loop at ${rate}/s for ${seconds} s\n`);
  await redis.config('SET', 'latency-monitor-threshold', '2');
  await redis.latency('RESET');
  await ask('loop-delay-start');
  const serverCpu = layout.pinning?.server ?? null;
  const before = {
    gateway: readProcessStats(started.pid).cpuSeconds,
    redis: await readRedisCpuSeconds(redis),
    core: serverCpu === null ? null : readCpuTicks(serverCpu),
  };
  const result = await drive({ mode: 'open', rate, durationMs: seconds * 1000 });
  const loop = await ask('loop-delay-stop');
  // What the open loop cost on the server's core: if it is nearly always busy, calls queue.
  const calls = rate * seconds;
  const perCallMs = (cpuSeconds: number): string => ((cpuSeconds * 1000) / calls).toFixed(3);
  const gatewayMs = perCallMs(readProcessStats(started.pid).cpuSeconds - before.gateway);
  const redisMs = perCallMs((await readRedisCpuSeconds(redis)) - before.redis);
  let busy = '';
  if (serverCpu !== null && before.core !== null) {
    const core = readCpuTicks(serverCpu);
    const share = (core.busy - before.core.busy) / Math.max(1, core.total - before.core.total);
    busy = `, CPU ${serverCpu} busy ${(share * 100).toFixed(0)} %`;
  }
  process.stdout.write(
    `--- CPU during the loop: gateway ${gatewayMs} ms per call, Redis ${redisMs} ms per call${busy}\n`,
  );
  // `calls`: the calls' durations inside the gateway (arrival in fastify to the response's end).
  process.stdout.write(`--- gateway event-loop delay (ms): ${JSON.stringify(loop)}\n`);
  process.stdout.write(
    `--- Redis stalls of 2 ms or more (event, last, max ms): ${JSON.stringify(await redis.latency('LATEST'))}\n`,
  );
  const latencies = Object.values(result.latencies).flat();
  const summary = summarizeLatencies(latencies);
  process.stdout.write(
    `--- end: ${latencies.length} calls, p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms\n`,
  );
} finally {
  redis.disconnect();
  await started.stop();
  await layout.stop();
}
