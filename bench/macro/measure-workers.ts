/**
 * `npx tsx bench/macro/measure-workers.ts [seconds] [worker counts...] [--spread]`: Tollgate with 1 and 2
 * cluster workers (default) in the side-by-side layout, every worker and Redis pinned to the
 * server's CPUs, the load generator and the mock upstream on the others; non-streamed Chat
 * Completions in a closed loop of 64 callers. Prints calls/s and CPU ms per call of the whole
 * process tree (primary and workers) and of Redis for each count, so the cost of running several
 * workers is measured on the same cores: equal CPU per call means throughput grows with the cores
 * given to the workers. `--spread` leaves the workers unpinned, free to use every CPU the other
 * processes leave idle (on two CPUs: what remains of the load generator's). Writes the figures,
 * with each count's CPU per call against the first count's, as the raw result
 * `bench/results/<date>T<time>-workers.json` (write-bench-result.ts).
 */
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { driveChatCompletions } from '../support/drive-chat-completions.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { readRedisCpuSeconds } from '../support/read-redis-commandstats.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startBenchRun } from '../support/write-bench-result.js';
import { startSideBySideLayout } from '../support/start-side-by-side-layout.js';

const spread = process.argv.includes('--spread');
const [secondsText = '6', ...countTexts] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--spread');
const seconds = Number(secondsText);
const counts = countTexts.length > 0 ? countTexts.map(Number) : [1, 2];

const run = startBenchRun('workers', 'bench/macro/measure-workers.ts');
const figures: {
  workers: number;
  callsPerSecond: number;
  cpuMsPerCall: number;
  redisCpuMsPerCall: number;
}[] = [];
const layout = await startSideBySideLayout();
const redis = new Redis(layout.redisServer.url);
const redisCpu = (): Promise<number> => readRedisCpuSeconds(redis);
try {
  process.stdout.write(
    `load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}\n`,
  );
  for (const workers of counts) {
    const started = await startBenchTarget(
      { id: `D${workers}`, scenario: 'D', label: 'D', workers, hold: false, crossCheck: false },
      spread ? { ...layout.environment, gatewayCpus: null } : layout.environment,
    );
    try {
      const drive = driveChatCompletions(layout, started, 'non-streamed');
      await drive.closed(64, 2_000);
      const cpuBefore = readProcessStats(started.pid).cpuSeconds;
      const redisBefore = await redisCpu();
      const calls = await drive.closed(64, seconds * 1000);
      const cpuMs = ((readProcessStats(started.pid).cpuSeconds - cpuBefore) * 1000) / calls;
      const redisMs = (((await redisCpu()) - redisBefore) * 1000) / calls;
      const figure = {
        workers,
        callsPerSecond: Math.round(calls / seconds),
        cpuMsPerCall: Math.round(cpuMs * 1000) / 1000,
        redisCpuMsPerCall: Math.round(redisMs * 1000) / 1000,
      };
      figures.push(figure);
      process.stdout.write(`${JSON.stringify(figure)}\n`);
    } finally {
      await started.stop();
    }
  }
} finally {
  redis.disconnect();
  await layout.stop();
}
const first = figures[0];
run.write({
  parameters: { seconds, counts, spread, kind: 'non-streamed Chat Completions', concurrency: 64 },
  figures,
  // CPU per call of each count against the first's: 1 means no cost for running several workers.
  cpuPerCallAgainstFirst: figures.map((figure) =>
    first === undefined ? null : Math.round((figure.cpuMsPerCall / first.cpuMsPerCall) * 100) / 100,
  ),
});
