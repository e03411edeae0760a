/**
 * Recorder lag under gateway load: the fake provider, Tollgate on a private Redis (scenario D's
 * gateway child), the load generator at fixed open-loop rates, and the recorder draining the usage
 * streams into PostgreSQL (in this process, as `tollgate recorder` runs it). Per rate: the rate
 * reached, the gateway's latency, the recorder lag of every record (its stream entry id, the Redis
 * time of the settlement's XADD, to the moment the recorder acknowledged it after the commit), and
 * the Redis commands per call (INFO commandstats, commands run inside scripts included, the
 * recorder's own included). Works in a database of its own, dropped at the end. Prints a table and
 * writes the figures as the raw result `bench/results/<date>T<time>-recorder-lag.json`
 * (write-bench-result.ts).
 *
 *   npx tsx bench/macro/recorder-lag-bench.ts [--rates 250,500,1000] [--seconds 15] [--batch 500]
 *     [--workers 1] [--url postgres://…/postgres]
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import type { LedgerDatabase } from '../../ledger/ledger-database.js';
import { readNumber } from '../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { createUsageStreamLister } from '../../ledger/recorder/list-usage-streams.js';
import type { RecordSource, SourceEntry } from '../../store/usage-record-source.js';
import { createRedisRecordSource } from '../../store/redis-usage-record-source.js';
import { startRecorderService } from '../../ledger/start-recorder-service.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { connectRedisClient, waitUntilReady } from '../../store/connect-redis-client.js';
import { createRedisKeyNames } from '../../store/redis-key-names.js';
import { createRedisStore } from '../../store/redis-store.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import { BENCH_KINDS, type BenchCredentials } from '../support/describe-bench-requests.js';
import { parseCommandStats } from '../support/read-redis-commandstats.js';
import type { LoadResult } from '../support/run-load-modes.js';
import { spawnBenchChild } from '../support/spawn-bench-child.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startBenchRun } from '../support/write-bench-result.js';

const { values: args } = parseArgs({
  options: {
    rates: { type: 'string', default: '250,500,1000' },
    seconds: { type: 'string', default: '15' },
    batch: { type: 'string', default: '500' },
    workers: { type: 'string', default: '1' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const rates = args.rates.split(',').map(Number);
const durationMs = Number(args.seconds) * 1000;
const run = startBenchRun('recorder-lag', 'bench/macro/recorder-lag-bench.ts');
const round = (value: number, digits = 0) =>
  Number.isFinite(value) ? Number(value.toFixed(digits)) : null;

/** The source, with every acknowledged entry's lag (acknowledgement time - XADD time) recorded. */
function measuringLag(source: RecordSource, lags: number[]): RecordSource {
  return {
    read: (count) => source.read(count),
    claimStale: (options) => source.claimStale(options),
    backlog: () => source.backlog(),
    acknowledge: async (entries: readonly SourceEntry[]) => {
      await source.acknowledge(entries);
      const now = Date.now();
      for (const entry of entries) lags.push(now - Number(entry.id.split('-')[0]));
    },
  };
}

async function ledgerCount(db: LedgerDatabase): Promise<number> {
  const rows = await db.query('SELECT count(*) AS n FROM usage_records');
  return readNumber(rows[0]?.n);
}

/** The key prefix the bench gateway chose (its account index is the only one in this Redis). */
async function findPrefix(redis: Redis): Promise<string> {
  const [index] = await redis.keys('*{accounts}:namespaces');
  if (index === undefined) throw new Error('the bench gateway wrote no account');
  return index.slice(0, -'{accounts}:namespaces'.length);
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main(): Promise<void> {
  const redisServer = await startRedisServer();
  const database = await createTestDatabase(args.url);
  const observer = new Redis(redisServer.url);
  const provider = await spawnBenchChild({
    script: './serve-bench-provider.ts',
    args: [JSON.stringify({ firstByteDelayMs: 20, chunkGapMs: 10, chunks: 5 })],
  });
  const loadgen = await spawnBenchChild({ script: './serve-load-generator.ts' });
  const upstream: BenchCredentials = { anthropic: 'x', openai: 'x', gemini: 'x' };
  const gateway = await startBenchTarget(
    {
      id: 'ledger',
      scenario: 'D',
      label: 'gateway + recorder',
      workers: Number(args.workers),
      hold: false,
      crossCheck: false,
    },
    {
      provider,
      providerUrl: String(provider.ready.url),
      redisUrl: redisServer.url,
      gatewayCpus: null,
      upstreamCredentials: upstream,
    },
  );
  const prefix = await findPrefix(observer);
  const db = await openLedgerDatabase({ databaseUrl: database.databaseUrl });
  const client = connectRedisClient({ url: redisServer.url });
  client.on('error', () => undefined);
  await waitUntilReady(client, 5_000);
  const store = await createRedisStore({ url: redisServer.url, prefix });
  const lags: number[] = [];
  const service = startRecorderService({
    source: measuringLag(
      createRedisRecordSource({
        redis: client,
        listStreams: createUsageStreamLister({ client, names: createRedisKeyNames(prefix) }),
        consumer: 'bench',
      }),
      lags,
    ),
    db,
    store,
    registry: new Registry(),
    retentionDays: 90,
    timeZone: 'UTC',
    batchSize: Number(args.batch),
    log: {
      info: () => undefined,
      warn: (object, message) => {
        console.error(message, object);
      },
    },
  });
  const rows: string[] = [];
  const figures: Record<string, unknown>[] = [];
  try {
    // Warm-up: connections, JIT, the consumer group.
    await loadgen.ask(
      {
        type: 'run',
        url: gateway.url,
        connections: 256,
        kinds: BENCH_KINDS,
        credentials: gateway.credentials,
        load: { mode: 'open', rate: 200, durationMs: 3_000 },
      },
      60_000,
    );
    for (const rate of rates) {
      // The previous phase's records are all in the ledger before this one starts.
      const drained = Date.now() + 60_000;
      while ((await store.usageStreamPosition('bench')).waiting > 0 && Date.now() < drained) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const before = await ledgerCount(db);
      lags.length = 0;
      await observer.config('RESETSTAT');
      const answer = await loadgen.ask(
        {
          type: 'run',
          url: gateway.url,
          connections: 512,
          kinds: BENCH_KINDS,
          credentials: gateway.credentials,
          load: { mode: 'open', rate, durationMs },
        },
        durationMs + 120_000,
      );
      if (answer.type !== 'result')
        throw new Error(`load generator failed: ${String(answer.message)}`);
      const result = answer.result as LoadResult;
      const ok = Object.values(result.latencies).reduce((sum, list) => sum + list.length, 0);
      const deadline = Date.now() + 60_000;
      while ((await ledgerCount(db)) - before < ok && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const written = (await ledgerCount(db)) - before;
      const calls = parseCommandStats(await observer.info('commandstats'));
      const total = [...calls.values()].reduce((sum, count) => sum + count, 0);
      const latency = summarizeLatencies(Object.values(result.latencies).flat());
      const lag = summarizeLatencies(lags);
      const errors = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
      const perCall = (command: string) => fixed((calls.get(command) ?? 0) / ok, 2);
      rows.push(
        `| ${rate} | ${fixed(ok / (result.durationMs / 1000))} | ${errors} | ${fixed(latency.p50, 1)} / ${fixed(latency.p99, 1)} | ${written} | ${fixed(lag.p50)} / ${fixed(lag.p99)} / ${fixed(lag.max)} | ${fixed(total / ok, 1)} | ${perCall('xadd')} / ${perCall('xreadgroup')} / ${perCall('xack')} |`,
      );
      console.error(rows.at(-1));
      figures.push({
        rate,
        reachedCallsPerSecond: round(ok / (result.durationMs / 1000)),
        errors,
        answered: ok,
        gatewayLatencyMs: { p50: round(latency.p50, 1), p99: round(latency.p99, 1) },
        recordsInLedger: written,
        recorderLagMs: { p50: round(lag.p50), p99: round(lag.p99), max: round(lag.max) },
        redisCommandsPerCall: round(total / ok, 1),
        perCall: {
          xadd: round((calls.get('xadd') ?? 0) / ok, 2),
          xreadgroup: round((calls.get('xreadgroup') ?? 0) / ok, 2),
          xack: round((calls.get('xack') ?? 0) / ok, 2),
        },
      });
    }
  } finally {
    await service.stop();
    await gateway.stop();
    await loadgen.ask({ type: 'stop' }, 5_000).catch(() => undefined);
    await provider.stop();
    client.disconnect();
    observer.disconnect();
    await store.close();
    await db.close();
    await database.drop();
    await redisServer.stop();
  }
  process.stdout.write(
    [
      '| Rate (calls/s) | Reached | Errors | Gateway p50 / p99 (ms) | Records in the ledger | Recorder lag p50 / p99 / max (ms) | Redis commands per call | XADD / XREADGROUP / XACK per call |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  run.write({
    parameters: {
      rates,
      seconds: Number(args.seconds),
      batch: Number(args.batch),
      workers: Number(args.workers),
    },
    rates: figures,
  });
}

await main();
process.exit(0);
