/**
 * `npx tsx bench/macro/compare-recorder-pacing.ts [rate] [seconds] [non-streamed|streamed] [pairs]
 * [variants]`: the recorder's pace and priority (docs/ledger.md) measured on target E of the
 * side-by-side bench (`start-deployed-target.ts`: the built gateway, operator and recorder, Redis
 * on the gateway's core, PostgreSQL), the operator and recorder on the gateway's core too,
 * alternated with the bare pass-through (target B) in one run.
 * Each pair measures B, then every variant in turn (the order reversed every other pair), each on
 * a freshly started E, under an open loop of `rate` calls per second for `seconds`. Variants
 * (comma-separated, default `off,on`): `off` the recorder reading again at once at its own
 * priority (`TOLLGATE_RECORDER_GATHER_MS=0 TOLLGATE_RECORDER_NICENESS=0`), `pace` the default
 * pause alone (the recorder's defaults), `on` the pause and niceness 10, `nice` niceness 10 alone. Prints per run: the gateway's p99 and p99 minus
 * B's of the same pair, the failed calls, CPU per call of the gateway, the recorder and
 * PostgreSQL (the recorder's and PostgreSQL's until the loop's records are written), Redis commands
 * per call, the recorder's lag (age of the oldest record not yet written, sampled every 50 ms from
 * the stream); then the medians by variant. Nothing is written.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { percentile, sortAscending, summarizeLatencies } from '../support/compute-percentiles.js';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { parseCpuSeconds } from '../support/read-process-stats.js';
import { countCommands, parseCommandStats } from '../support/read-redis-commandstats.js';
import type { LoadResult } from '../support/run-load-modes.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startDeployedTarget } from '../support/start-deployed-target.js';
import { driveLoad, startSideBySideLayout } from '../support/start-side-by-side-layout.js';

const VARIANTS: Record<string, Record<string, string | undefined>> = {
  off: { TOLLGATE_RECORDER_GATHER_MS: '0', TOLLGATE_RECORDER_NICENESS: '0' },
  on: { TOLLGATE_RECORDER_GATHER_MS: undefined, TOLLGATE_RECORDER_NICENESS: '10' },
  pace: { TOLLGATE_RECORDER_GATHER_MS: undefined, TOLLGATE_RECORDER_NICENESS: '0' },
  nice: { TOLLGATE_RECORDER_GATHER_MS: '0', TOLLGATE_RECORDER_NICENESS: '10' },
};

const [rateText = '500', secondsText = '10', kindText = 'non-streamed', pairsText = '3', names] =
  process.argv.slice(2);
const rate = Number(rateText);
const seconds = Number(secondsText);
const pairs = Number(pairsText);
const variants = (names ?? 'off,on').split(',');
for (const name of variants)
  if (VARIANTS[name] === undefined) throw new Error(`no variant ${name}`);
const kind: BenchRequestKind = { platform: 'openai', stream: kindText === 'streamed', chat: true };

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function cpuSeconds(pid: number | undefined): number {
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid ?? 0}/stat`, 'utf8'));
  } catch {
    return 0;
  }
}

interface Run {
  variant: string;
  p99: number;
  overB: number;
  failed: number;
  gateway: number;
  recorder: number;
  postgres: number;
  redis: number;
  /** Recorder batches per 1,000 calls (its XACKs: one per stream and batch). */
  batches: number;
  lagP99: number;
  lagMax: number;
}

const median = (values: readonly number[]): number => percentile(sortAscending(values), 0.5);

process.stdout.write(`load average ${load()}; ${rate}/s for ${seconds} s, ${kindText}\n`);
const layout = await startSideBySideLayout();
const redis = new Redis(layout.redisServer.url);
const runs: Run[] = [];
const drive = (
  url: string,
  credentials: Parameters<typeof driveLoad>[1]['credentials'],
  body: Record<string, unknown>,
): Promise<LoadResult> => driveLoad(layout.loadgen, { url, kind, credentials, load: body });
const measure = { mode: 'open', rate, durationMs: seconds * 1000 };

try {
  for (let pair = 1; pair <= pairs; pair++) {
    const bare = await startBenchTarget(
      { id: 'B', scenario: 'B', label: 'bare', workers: 1, hold: false, crossCheck: false },
      layout.environment,
    );
    let bareP99: number;
    try {
      await drive(bare.url, bare.credentials, {
        mode: 'closed',
        concurrency: 16,
        durationMs: 1_000,
      });
      await drive(bare.url, bare.credentials, { mode: 'open', rate, durationMs: 2_000 });
      const result = await drive(bare.url, bare.credentials, measure);
      bareP99 = summarizeLatencies(Object.values(result.latencies).flat()).p99;
    } finally {
      await bare.stop();
    }
    process.stdout.write(`pair ${pair}: B p99 ${bareP99.toFixed(2)} ms (load ${load()})\n`);
    const order = pair % 2 === 1 ? variants : [...variants].reverse();
    for (const variant of order) {
      for (const [name, value] of Object.entries(VARIANTS[variant] ?? {})) {
        // Empty: the recorder's default (its configuration reads '' as unset).
        process.env[name] = value ?? '';
      }
      const target = await startDeployedTarget({
        upstreamUrl: layout.environment.providerUrl,
        redisUrl: layout.redisServer.url,
        cpus: layout.environment.gatewayCpus,
        // The recorder shares the gateway's core here: its pace and priority are what is measured.
        sidecarCpus: layout.environment.gatewayCpus,
      });
      try {
        await drive(target.url, target.credentials, {
          mode: 'closed',
          concurrency: 16,
          durationMs: 1_000,
        });
        await drive(target.url, target.credentials, { mode: 'open', rate, durationMs: 2_000 });
        await target.drained();
        const streams: string[] = [];
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', '*usage', 'TYPE', 'stream');
          cursor = next;
          streams.push(...keys);
        } while (cursor !== '0');
        const postgresPids = async (): Promise<number> => {
          let sum = 0;
          for (const pid of (await target.postgresPids?.()) ?? []) sum += cpuSeconds(pid);
          return sum;
        };
        const before = {
          gateway: cpuSeconds(target.pids.gateway),
          recorder: cpuSeconds(target.pids.recorder),
          postgres: await postgresPids(),
        };
        await redis.config('RESETSTAT');
        const lags: number[] = [];
        let polls = 0;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            let oldest: number | null = null;
            for (const stream of streams) {
              polls++;
              const first = (await redis.xrange(stream, '-', '+', 'COUNT', 1))[0];
              const appended = Number(first?.[0].split('-')[0]);
              if (Number.isFinite(appended)) oldest = Math.min(oldest ?? appended, appended);
            }
            lags.push(oldest === null ? 0 : Math.max(0, Date.now() - oldest));
            await sleep(50);
          }
        })();
        const result = await drive(target.url, target.credentials, measure);
        const gatewayAfter = cpuSeconds(target.pids.gateway);
        sampling = false;
        await sampler;
        const commands = countCommands(parseCommandStats(await redis.info('commandstats')));
        await target.drained();
        const latencies = Object.values(result.latencies).flat();
        const calls = Math.max(1, latencies.length);
        const p99 = summarizeLatencies(latencies).p99;
        const sortedLags = sortAscending(lags);
        const run: Run = {
          variant,
          p99,
          overB: p99 - bareP99,
          failed: Object.values(result.errors).reduce((sum, one) => sum + one, 0),
          gateway: ((gatewayAfter - before.gateway) * 1000) / calls,
          recorder: ((cpuSeconds(target.pids.recorder) - before.recorder) * 1000) / calls,
          postgres: (((await postgresPids()) - before.postgres) * 1000) / calls,
          redis: (commands.total - polls) / calls,
          batches: ((commands.byCommand['xack'] ?? 0) * 1000) / calls,
          lagP99: percentile(sortedLags, 0.99),
          lagMax: sortedLags.at(-1) ?? 0,
        };
        runs.push(run);
        process.stdout.write(
          `  ${variant.padEnd(4)} p99 ${p99.toFixed(2)} ms (B ${run.overB >= 0 ? '+' : ''}${run.overB.toFixed(2)}), failed ${run.failed}; CPU ms per call gateway ${run.gateway.toFixed(3)}, recorder ${run.recorder.toFixed(3)}, PostgreSQL ${run.postgres.toFixed(3)}; Redis commands ${run.redis.toFixed(2)}; batches per 1,000 calls ${run.batches.toFixed(1)}; lag p99 ${run.lagP99} ms, max ${run.lagMax} ms (load ${load()})\n`,
        );
      } finally {
        await target.stop();
      }
    }
  }
  process.stdout.write(`--- medians over ${pairs} pairs (load ${load()}):\n`);
  for (const variant of variants) {
    const mine = runs.filter((run) => run.variant === variant);
    const of = (pick: (run: Run) => number): string => median(mine.map(pick)).toFixed(3);
    const range = (pick: (run: Run) => number): string => {
      const values = sortAscending(mine.map(pick));
      return `${(values[0] ?? 0).toFixed(2)}..${(values.at(-1) ?? 0).toFixed(2)}`;
    };
    process.stdout.write(
      `  ${variant.padEnd(4)} p99 over B ${of((run) => run.overB)} ms (${range((run) => run.overB)}); CPU ms per call gateway ${of((run) => run.gateway)}, recorder ${of((run) => run.recorder)}, PostgreSQL ${of((run) => run.postgres)}; Redis commands ${of((run) => run.redis)}; batches per 1,000 calls ${of((run) => run.batches)}; lag max ${of((run) => run.lagMax)} ms; failed ${mine.reduce((sum, run) => sum + run.failed, 0)}\n`,
    );
  }
} finally {
  redis.disconnect();
  await layout.stop();
}
