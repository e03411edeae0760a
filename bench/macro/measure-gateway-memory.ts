/**
 * `npx tsx bench/macro/measure-gateway-memory.ts <label> [hold seconds] [-- node flags for Tollgate]`:
 * the gateway's resident memory in the bench's layout (`npm run bench`: the fake provider, a
 * private Redis, one worker with every admission feature set), the gateway started as the chart
 * starts it (`start-production-gateway.ts`: the compiled build, the chart's Node flags and then
 * the given ones, no tsx loader in the process): at rest after start, after 5 s of saturating
 * non-streamed calls (the young generation grown as far as load grows it), and while it holds
 * 1,000 open streams (the full bench's hold, shortened). The hold comes after the saturation on
 * purpose: it is the worst case for a grown young generation. Prints one JSON line and writes it as
 * the raw result `bench/results/<date>T<time>-gateway-memory.json` (write-bench-result.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedisServer } from '../../test/support/redis-server.js';
import { measureHold } from './measure-target.js';
import { planBenchRun } from '../support/plan-bench-run.js';
import { readHeapFigures } from './read-heap-figures.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { startBenchProcesses } from './start-bench-processes.js';
import { startProductionGateway } from './start-production-gateway.js';
import { answeredCalls, driveLoad } from '../support/start-side-by-side-layout.js';
import { startBenchRun } from '../support/write-bench-result.js';

const [label = 'run', secondsText = '20', ...rest] = process.argv.slice(2);
const nodeFlags = rest.filter((flag) => flag !== '--');
const plan = planBenchRun('full');
plan.hold = { ...plan.hold, seconds: Number(secondsText) };

const run = startBenchRun('gateway-memory', 'bench/macro/measure-gateway-memory.ts');
const { pinning, provider, loadgen } = await startBenchProcesses(plan);
const redisServer = await startRedisServer();
const started = await startProductionGateway({
  providerUrl: String(provider.ready.url),
  redisUrl: redisServer.url,
  cpus: pinning?.gateway ?? null,
  nodeFlags,
});
try {
  await sleep(2_000);
  const restingMb = readProcessStats(started.pid).rssMb;
  const restingHeapMb = await readHeapFigures(started.metricsUrl);
  // The provider answers at once, so the calls are bound by the gateway's core, not by waiting.
  await provider.ask({ type: 'behaviour', behaviour: {} }, 10_000);
  const saturated = await driveLoad(loadgen, {
    url: started.url,
    kind: { platform: 'openai', stream: false, chat: true },
    credentials: started.credentials,
    load: { mode: 'closed', concurrency: 64, durationMs: 5_000 },
  });
  const afterLoadMb = readProcessStats(started.pid).rssMb;
  const afterLoadHeapMb = await readHeapFigures(started.metricsUrl);
  const hold = await measureHold({
    plan,
    loadgen: loadgen,
    provider,
    url: started.url,
    credentials: started.credentials,
    targetPid: started.pid,
    redis: null,
    crossCheck: false,
  });
  const round = (value: number): number => Math.round(value * 10) / 10;
  const result = {
    label,
    nodeFlags,
    restingMb: round(restingMb),
    restingHeapMb,
    saturatedCalls: answeredCalls(saturated),
    saturatedErrors: saturated.errors,
    afterLoadMb: round(afterLoadMb),
    afterLoadHeapMb,
    hold: { ...hold, peakRssMb: round(hold.peakRssMb), idleRssMb: round(hold.idleRssMb) },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  run.write(result);
} finally {
  await started.stop();
  await loadgen.ask({ type: 'stop' }, 5_000).catch(() => undefined);
  await loadgen.stop();
  await provider.stop();
  await redisServer.stop();
}
