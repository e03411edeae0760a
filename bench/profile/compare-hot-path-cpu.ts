/**
 * `npx tsx bench/profile/compare-hot-path-cpu.ts <base worktree> [non-streamed|streamed] [pairs] [seconds]`:
 * CPU per call of this checkout's Tollgate against another checkout's (the branch point), and of
 * the bare pass-through (B), in one side-by-side layout: each target its own private Redis pinned
 * with the servers, driven in turn by the same closed loop of 64 callers (B, base, head, B, base,
 * head, then head, base, B, ...), so the machine's load falls on all of them alike. Prints every round's CPU ms per call
 * (process, and its Redis) and the medians, head/base and each over B.
 */
import { Redis } from 'ioredis';
import { loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRedisServer } from '../../test/support/redis-server.js';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { readRedisCpuSeconds } from '../support/read-redis-commandstats.js';
import { startBenchTarget, type StartedTarget } from '../support/start-bench-target.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
} from '../support/start-side-by-side-layout.js';

// `--swap`: each checkout on the other Redis (and started in the other order), to tell a slot's own
// bias from the code's: compare the ratios of a run with and without it.
const swap = process.argv.includes('--swap');
const positional = process.argv.slice(2).filter((arg) => arg !== '--swap');
const baseRoot = resolve(positional[0] ?? '../base');
const kindName = positional[1] === 'streamed' ? 'streamed' : 'non-streamed';
const pairs = Number(positional[2] ?? 3);
const seconds = Number(positional[3] ?? 4);
const kind: BenchRequestKind = { platform: 'openai', stream: kindName === 'streamed', chat: true };

interface Row {
  name: string;
  target: StartedTarget;
  redis: Redis | null;
  cpu: number[];
  redisCpu: number[];
  rate: number[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const load = loadavg().map((value) => value.toFixed(2));
  const layout = await startSideBySideLayout();
  const baseModule = (await import(
    pathToFileURL(resolve(baseRoot, 'bench/support/start-bench-target.ts')).href
  )) as { startBenchTarget: typeof startBenchTarget };
  const secondRedis = await startRedisServer();
  process.once('exit', () => secondRedis.process.kill('SIGKILL'));
  if (layout.pinning !== null && secondRedis.process.pid !== undefined) {
    execFileSync('taskset', ['-a', '-pc', layout.pinning.server, String(secondRedis.process.pid)]);
  }
  const target = (scenario: 'B' | 'D') =>
    ({
      id: `${scenario}1`,
      scenario,
      label: scenario,
      workers: 1,
      hold: false,
      crossCheck: false,
    }) as const;
  const rows: Row[] = [];
  try {
    const bare = await startBenchTarget(target('B'), layout.environment);
    const second = { ...layout.environment, redisUrl: secondRedis.url };
    const startBase = () =>
      baseModule.startBenchTarget(target('D'), swap ? layout.environment : second);
    const startHead = () => startBenchTarget(target('D'), swap ? second : layout.environment);
    const [base, head] = swap
      ? await startHead().then(async (started) => [await startBase(), started] as const)
      : await startBase().then(async (started) => [started, await startHead()] as const);
    const redisOf = (onSecond: boolean) =>
      new Redis(onSecond ? secondRedis.url : layout.redisServer.url);
    rows.push(
      { name: 'B', target: bare, redis: null, cpu: [], redisCpu: [], rate: [] },
      { name: 'base', target: base, redis: redisOf(!swap), cpu: [], redisCpu: [], rate: [] },
      { name: 'head', target: head, redis: redisOf(swap), cpu: [], redisCpu: [], rate: [] },
    );
    const drive = (row: Row, durationMs: number): Promise<number> =>
      driveLoad(layout.loadgen, {
        url: row.target.url,
        kind,
        credentials: row.target.credentials,
        load: { mode: 'closed', concurrency: 64, durationMs },
      }).then(answeredCalls);
    for (const row of rows) await drive(row, 5_000);
    for (let round = 0; round < pairs; round++) {
      // Every other round in reverse order: no target always runs right after another.
      for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
        const before = readProcessStats(row.target.pid).cpuSeconds;
        const redisBefore = row.redis === null ? 0 : await readRedisCpuSeconds(row.redis);
        const calls = await drive(row, seconds * 1000);
        const after = readProcessStats(row.target.pid).cpuSeconds;
        const redisAfter = row.redis === null ? 0 : await readRedisCpuSeconds(row.redis);
        row.cpu.push(((after - before) * 1000) / calls);
        row.redisCpu.push(((redisAfter - redisBefore) * 1000) / calls);
        row.rate.push(calls / seconds);
      }
      process.stdout.write(
        `round ${round + 1}: ${rows.map((row) => `${row.name} ${(row.cpu.at(-1) ?? 0).toFixed(3)}`).join('  ')}\n`,
      );
    }
    const [b, baseRow, headRow] = rows.map((row) => median(row.cpu)) as [number, number, number];
    process.stdout.write(
      `${kindName}${swap ? ' (swapped)' : ''}, load ${load.join(' ')} -> ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
    );
    for (const row of rows) {
      process.stdout.write(
        `  ${row.name}: CPU ms/call median ${median(row.cpu).toFixed(3)} (range ${Math.min(...row.cpu).toFixed(3)}-${Math.max(...row.cpu).toFixed(3)}), redis ${median(row.redisCpu).toFixed(3)}, calls/s ${Math.round(median(row.rate))}\n`,
      );
    }
    process.stdout.write(
      `  head/base ${(headRow / baseRow).toFixed(3)}  base/B ${(baseRow / b).toFixed(2)}  head/B ${(headRow / b).toFixed(2)}\n`,
    );
  } finally {
    for (const row of rows) {
      row.redis?.disconnect();
      await row.target.stop();
    }
    await layout.stop();
    await secondRedis.stop();
  }
}

await main();
