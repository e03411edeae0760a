/**
 * `npx tsx bench/macro/measure-recorder-cost.ts [rate] [seconds] [pairs] [variants]`: what the
 * recorder costs per record at a steady rate, without a gateway: this process appends usage
 * records to a private Redis's usage stream (every 10 ms, `rate` per second) while `tollgate
 * recorder` (from the build, as deployed) drains them into a PostgreSQL database of its own. Per
 * run: CPU ms per record of the recorder and of its PostgreSQL backends, Redis commands per
 * record (the appends left out), records per batch, and the lag (age of the oldest record not yet
 * written, sampled every 50 ms from the stream). Variants as in `compare-recorder-pacing.ts`
 * (`off`: gather 0 and niceness 0; `pace`: the defaults, the pause alone; `on`: the pause and
 * niceness 10; `nice`: niceness 10 alone), alternated for `pairs`
 * pairs, the order reversed every other pair. Nothing is written.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RECORD_FIELD } from '../../store/redis-usage-record-source.js';
import { createRedisKeyNames } from '../../store/redis-key-names.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { freePort, startRedisServer } from '../../test/support/redis-server.js';
import { percentile, sortAscending } from '../support/compute-percentiles.js';
import { parseCpuSeconds } from '../support/read-process-stats.js';
import { countCommands, parseCommandStats } from '../support/read-redis-commandstats.js';
import { metricSum, spawnTollgateCommand } from '../support/spawn-tollgate-command.js';
import { pollUntil } from '../support/poll-until.js';

const VARIANTS: Record<string, Record<string, string>> = {
  off: { TOLLGATE_RECORDER_GATHER_MS: '0', TOLLGATE_RECORDER_NICENESS: '0' },
  on: { TOLLGATE_RECORDER_NICENESS: '10' },
  pace: { TOLLGATE_RECORDER_NICENESS: '0' },
  nice: { TOLLGATE_RECORDER_GATHER_MS: '0', TOLLGATE_RECORDER_NICENESS: '10' },
};
const [rateText = '500', secondsText = '10', pairsText = '3', names = 'off,on'] =
  process.argv.slice(2);
const rate = Number(rateText);
const seconds = Number(secondsText);
const pairs = Number(pairsText);
const variants = names.split(',');
for (const name of variants)
  if (VARIANTS[name] === undefined) throw new Error(`no variant ${name}`);
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const cpuOf = (pid: number): number => {
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0;
  }
};

interface Run {
  variant: string;
  recorder: number;
  postgres: number;
  redis: number;
  perBatch: number;
  lagP99: number;
  lagMax: number;
}

const redisServer = await startRedisServer();
const redis = new Redis(redisServer.url);
const runs: Run[] = [];
process.stdout.write(`load average ${load()}; ${rate} records/s for ${seconds} s\n`);
let sequence = 0;

async function measure(variant: string): Promise<Run> {
  const prefix = `tg-cost-${variant}-${Date.now()}:`;
  const names = createRedisKeyNames(prefix);
  const stream = names.namespace('team-a').usageStream;
  await redis.sadd(names.accountIndex, 'team-a');
  const database = await createTestDatabase();
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-recorder-cost-'));
  const metricsPort = await freePort();
  const recorder = spawnTollgateCommand({
    args: ['recorder'],
    logFile: join(folder, 'recorder.log'),
    cpus: null,
    env: {
      REDIS_URL: redisServer.url,
      TOLLGATE_REDIS_PREFIX: prefix,
      TOLLGATE_DATABASE_URL: database.databaseUrl,
      TOLLGATE_METRICS_HOST: '127.0.0.1',
      TOLLGATE_METRICS_PORT: String(metricsPort),
      TOLLGATE_RECORDER_CONSUMER: 'cost',
      ...VARIANTS[variant],
    },
  });
  const metrics = async (name: string): Promise<number> =>
    metricSum(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), name) ?? 0;
  const postgresCpu = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const result = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      return result.rows.reduce((sum, row) => sum + cpuOf(row.pid), 0);
    } finally {
      await client.end();
    }
  };
  try {
    await pollUntil(
      'the recorder to serve its metrics',
      async () => {
        if (recorder.exited()) throw new Error(recorder.tail().join('\n'));
        return (await metrics('tollgate_recorder_batches_total')) >= 0 ? true : undefined;
      },
      60_000,
      250,
    ).catch(async () => {
      await sleep(0);
      throw new Error(recorder.tail().join('\n'));
    });
    const append = async (count: number): Promise<void> => {
      const pipeline = redis.pipeline();
      for (let index = 0; index < count; index++) {
        sequence++;
        const record = makeRecord({ requestId: `cost-${sequence}`, time: Date.now() });
        pipeline.xadd(stream, '*', RECORD_FIELD, JSON.stringify(record));
      }
      await pipeline.exec();
    };
    const drive = async (durationMs: number): Promise<number> => {
      const started = Date.now();
      let sent = 0;
      while (Date.now() - started < durationMs) {
        const due = Math.floor(((Date.now() - started) / 1000) * rate);
        if (due > sent) {
          await append(due - sent);
          sent = due;
        }
        await sleep(10);
      }
      return sent;
    };
    const inserted = (): Promise<number> => metrics('tollgate_recorder_records_inserted_total');
    const drained = async (total: number): Promise<void> => {
      await pollUntil(
        'the recorder to drain',
        async () => ((await inserted()) >= total ? true : undefined),
        120_000,
        100,
      );
    };
    // Warm-up: the process, its connections and the statements' plans.
    const warm = await drive(2_000);
    await drained(warm);
    const before = {
      recorder: cpuOf(recorder.pid),
      postgres: await postgresCpu(),
      batches: await metrics('tollgate_recorder_batches_total'),
    };
    await redis.config('RESETSTAT');
    const lags: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const first = (await redis.xrange(stream, '-', '+', 'COUNT', 1))[0];
        const appended = Number(first?.[0].split('-')[0]);
        lags.push(Number.isFinite(appended) ? Math.max(0, Date.now() - appended) : 0);
        await sleep(50);
      }
    })();
    const sent = await drive(seconds * 1000);
    await drained(warm + sent);
    sampling = false;
    await sampler;
    const byCommand = countCommands(parseCommandStats(await redis.info('commandstats'))).byCommand;
    const recorderCommands = Object.entries(byCommand)
      .filter(([name]) => name !== 'xadd' && name !== 'xrange')
      .reduce((sum, [, count]) => sum + count, 0);
    const batches = (await metrics('tollgate_recorder_batches_total')) - before.batches;
    const sortedLags = sortAscending(lags);
    return {
      variant,
      recorder: ((cpuOf(recorder.pid) - before.recorder) * 1000) / sent,
      postgres: (((await postgresCpu()) - before.postgres) * 1000) / sent,
      redis: recorderCommands / sent,
      perBatch: sent / Math.max(1, batches),
      lagP99: percentile(sortedLags, 0.99),
      lagMax: sortedLags.at(-1) ?? 0,
    };
  } finally {
    await recorder.stop();
    await database.drop();
    await redis.del(stream, names.accountIndex);
    rmSync(folder, { recursive: true, force: true });
  }
}

try {
  for (let pair = 1; pair <= pairs; pair++) {
    for (const variant of pair % 2 === 1 ? variants : [...variants].reverse()) {
      const run = await measure(variant);
      runs.push(run);
      process.stdout.write(
        `pair ${pair} ${variant.padEnd(4)} CPU ms per record: recorder ${run.recorder.toFixed(3)}, PostgreSQL ${run.postgres.toFixed(3)}; Redis commands per record ${run.redis.toFixed(3)}; records per batch ${run.perBatch.toFixed(1)}; lag p99 ${run.lagP99} ms, max ${run.lagMax} ms (load ${load()})\n`,
      );
    }
  }
  process.stdout.write(`--- medians over ${pairs} pairs (load ${load()}):\n`);
  for (const variant of variants) {
    const mine = runs.filter((run) => run.variant === variant);
    const of = (pick: (run: Run) => number): string =>
      percentile(sortAscending(mine.map(pick)), 0.5).toFixed(3);
    process.stdout.write(
      `  ${variant.padEnd(4)} CPU ms per record: recorder ${of((run) => run.recorder)}, PostgreSQL ${of((run) => run.postgres)}; Redis commands per record ${of((run) => run.redis)}; records per batch ${of((run) => run.perBatch)}; lag p99 ${of((run) => run.lagP99)} ms, max ${of((run) => run.lagMax)} ms\n`,
    );
  }
} finally {
  redis.disconnect();
  await redisServer.stop();
}
