/**
 * Usage ledger benchmark on a real PostgreSQL: seeds N records spread over 30 days (server-side
 * generate_series, with their request ids, hourly rollups and totals), measures ingest through
 * `insertUsageRecords` batches, then the p50/p95 of the per-key 30-day daily breakdown and the
 * 30-day account trends. Works in a database of its own, dropped at the end. Writes the figures as
 * the raw result `bench/results/<date>T<time>-ledger.json` (write-bench-result.ts).
 *
 *   npx tsx bench/macro/ledger-bench.ts [--records 1000000] [--ingest 50000] [--batch 500]
 *     [--writers 2] [--samples 200] [--namespaces 20] [--keys 25] [--url postgres://…/postgres]
 */
import { parseArgs } from 'node:util';
import { insertUsageRecords } from '../../ledger/insert-usage-records.js';
import type { LedgerDatabase } from '../../ledger/ledger-database.js';
import type { LedgerRecord } from '../../ledger/ledger-record.js';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { queryAccountTrend } from '../../ledger/queries/account-trend.js';
import { queryKeySummary } from '../../ledger/queries/key-summary.js';
import { startOfLocalDay } from '../../ledger/queries/local-time.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { percentile, sortAscending } from '../support/compute-percentiles.js';
import { startBenchRun } from '../support/write-bench-result.js';

const DAY = 86_400_000;
const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-1', 'gpt-5', 'gemini-2.5-pro'];

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    ingest: { type: 'string', default: '50000' },
    batch: { type: 'string', default: '500' },
    writers: { type: 'string', default: '2' },
    samples: { type: 'string', default: '200' },
    namespaces: { type: 'string', default: '20' },
    keys: { type: 'string', default: '25' },
    'time-zone': { type: 'string', default: 'UTC' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const records = Number(args.records);
const namespaces = Number(args.namespaces);
const keysPerNamespace = Number(args.keys);
const timeZone = args['time-zone'];

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const run = startBenchRun('ledger', 'bench/macro/ledger-bench.ts');
const round = (value: number) => Math.round(value * 10) / 10;

/** One UTC day of records generated inside PostgreSQL, with ids, rollups and totals. */
async function seedDay(db: LedgerDatabase, day: { start: number; count: number; index: number }) {
  const keyCount = namespaces * keysPerNamespace;
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL synchronous_commit = off');
    await tx.query(
      `INSERT INTO usage_records (time, request_id, charged_at, namespace, account_uid, key_uid,
         key_name, group_name, platform, model, upstream_model, upstream, input_uncached_tokens,
         cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens,
         reasoning_tokens, cost_nano, price_version, multiplier, duration_ms, ttfb_ms, status,
         outcome, stream, accuracy, estimated, flags)
       SELECT t, 'seed-' || $3 || '-' || i, t + interval '1500 ms', 'ns-' || (k % $4),
         'account-' || (k % $4), 'key-' || k, 'key ' || k, 'group', 'Anthropic',
         ($6::text[])[(1 + (i / $5) % 4)::int], ($6::text[])[(1 + (i / $5) % 4)::int], 'upstream',
         (i * 7919) % 4000, (i * 104729) % 20000, (i * 31) % 500, 0, (i * 1009) % 2000,
         (i * 13) % 300, 1000 + (i * 7907) % 900000, 'bench', 1, 500 + (i % 5000), 200,
         CASE WHEN i % 50 = 0 THEN 429 ELSE 200 END,
         CASE WHEN i % 50 = 0 THEN 'client_error' ELSE 'success' END,
         true, 'exact', false, '{}'
       FROM generate_series(0::bigint, $2::bigint - 1) AS i,
         LATERAL (SELECT (timestamptz 'epoch' + ($1::bigint + (i::bigint * 86400000) / $2)
           * interval '1 ms') AS t, (i * 7) % $5 AS k) AS g`,
      [day.start, day.count, day.index, namespaces, keyCount, MODELS],
    );
    const range = [day.start, day.start + DAY];
    const inDay = `time >= timestamptz 'epoch' + $1::bigint * interval '1 ms'
      AND time < timestamptz 'epoch' + $2::bigint * interval '1 ms'`;
    await tx.query(
      `INSERT INTO usage_record_ids SELECT request_id, time FROM usage_records WHERE ${inDay}`,
      range,
    );
    await tx.query(
      `INSERT INTO usage_rollups_hourly SELECT namespace, key_uid, date_trunc('hour', time, 'UTC'),
         model, count(*), count(*) FILTER (WHERE estimated), count(*) FILTER (WHERE outcome <> 'success'),
         sum(input_uncached_tokens), sum(cache_read_tokens), sum(cache_write_5m_tokens),
         sum(cache_write_1h_tokens), sum(output_tokens), sum(reasoning_tokens), sum(cost_nano),
         sum(duration_ms)
       FROM usage_records WHERE ${inDay} GROUP BY 1, 2, 3, 4`,
      range,
    );
  });
}

async function seed(db: LedgerDatabase, now: number): Promise<void> {
  const firstDay = Math.floor(now / DAY) * DAY - 30 * DAY;
  await db.query('SELECT ledger_create_partitions($1::date, 32)', [
    new Date(firstDay).toISOString().slice(0, 10),
  ]);
  const started = Date.now();
  for (let index = 0; index < 30; index++) {
    const count = Math.floor(records / 30) + (index < records % 30 ? 1 : 0);
    await seedDay(db, { start: firstDay + index * DAY, count, index });
    process.stdout.write(`\rseeded day ${index + 1}/30 (${seconds(Date.now() - started)} s)`);
  }
  await db.query(
    `INSERT INTO usage_totals SELECT namespace, key_uid, count(*), sum(cost_nano), max(charged_at)
     FROM usage_records GROUP BY 1, 2`,
  );
  await db.query('ANALYZE');
  console.log(`\nseeded ${records} records in ${seconds(Date.now() - started)} s`);
}

function ingestRecord(index: number, now: number): LedgerRecord {
  const keyIndex = index % (namespaces * keysPerNamespace);
  return {
    requestId: `ingest-${index}`,
    time: now - 60_000 + (index % 60_000),
    namespace: `ns-${keyIndex % namespaces}`,
    accountUid: `account-${keyIndex % namespaces}`,
    keyUid: `key-${keyIndex}`,
    keyName: `key ${keyIndex}`,
    group: 'group',
    upstream: 'upstream',
    platform: 'Anthropic',
    model: MODELS[index % MODELS.length]!,
    upstreamModel: MODELS[index % MODELS.length]!,
    usage: {
      inputUncached: 1200,
      cacheRead: 8000,
      cacheWrite5m: 300,
      cacheWrite1h: 0,
      output: 700,
      reasoning: 100,
    },
    costNano: 12_345_678,
    priceVersion: 'bench',
    multiplier: '1',
    durationMs: 2300,
    timeToFirstByteMs: 400,
    status: 200,
    stream: true,
    accuracy: 'exact',
    flags: [],
  };
}

async function measureIngest(db: LedgerDatabase, now: number): Promise<number> {
  const total = Number(args.ingest);
  const batchSize = Number(args.batch);
  let next = 0;
  const started = performance.now();
  const writer = async () => {
    while (next < total) {
      const from = next;
      next = Math.min(total, next + batchSize);
      const batch = Array.from({ length: next - from }, (_, offset) =>
        ingestRecord(from + offset, now),
      );
      await insertUsageRecords(db, batch);
    }
  };
  await Promise.all(Array.from({ length: Number(args.writers) }, writer));
  return total / ((performance.now() - started) / 1000);
}

interface Latency {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

async function sample(label: string, query: (index: number) => Promise<unknown>): Promise<Latency> {
  const durations: number[] = [];
  for (let index = 0; index < Number(args.samples); index++) {
    const started = performance.now();
    await query(index);
    durations.push(performance.now() - started);
  }
  const sorted = sortAscending(durations);
  const fixed = (quantile: number) => percentile(sorted, quantile).toFixed(1);
  console.log(`${label}: p50 ${fixed(0.5)} ms, p95 ${fixed(0.95)} ms, max ${fixed(1)} ms`);
  return {
    p50Ms: round(percentile(sorted, 0.5)),
    p95Ms: round(percentile(sorted, 0.95)),
    maxMs: round(percentile(sorted, 1)),
  };
}

async function main(): Promise<void> {
  const created = await createTestDatabase(args.url);
  const db = await openLedgerDatabase({ databaseUrl: created.databaseUrl });
  try {
    const now = Date.now();
    const seedStarted = Date.now();
    await seed(db, now);
    const seedSeconds = round((Date.now() - seedStarted) / 1000);
    const rate = await measureIngest(db, now);
    console.log(
      `ingest: ${Math.round(rate)} records/s (${args.ingest} records, batches of ${args.batch}, ` +
        `${args.writers} writers)`,
    );
    const keyCount = namespaces * keysPerNamespace;
    const pick = (index: number) => (index * 7919) % keyCount;
    const keyBreakdown = await sample('per-key 30-day daily breakdown', (index) =>
      queryKeySummary(db, {
        namespace: `ns-${pick(index) % namespaces}`,
        keyUid: `key-${pick(index)}`,
        now,
        timeZone,
        quota: { limitNano: 1e12, since: now - 10 * DAY - 1234 },
      }),
    );
    const from = startOfLocalDay(now, timeZone, 29);
    const accountTrend: Record<string, Latency> = {};
    for (const bucket of ['day', 'hour'] as const) {
      accountTrend[bucket] = await sample(`30-day account trend by ${bucket}`, (index) =>
        queryAccountTrend(db, {
          namespace: `ns-${index % namespaces}`,
          from,
          to: now + 1,
          bucket,
          timeZone,
        }),
      );
    }
    const sizes = await db.query<{ records: string; rollups: string; size: string }>(
      `SELECT (SELECT count(*) FROM usage_records)::text AS records,
         (SELECT count(*) FROM usage_rollups_hourly)::text AS rollups,
         pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    console.log(`database: ${JSON.stringify(sizes[0])}`);
    run.write({
      // The database URL is left out: it may hold a password.
      parameters: {
        records,
        ingest: Number(args.ingest),
        batch: Number(args.batch),
        writers: Number(args.writers),
        samples: Number(args.samples),
        namespaces,
        keysPerNamespace,
        timeZone,
      },
      seedSeconds,
      ingestRecordsPerSecond: Math.round(rate),
      keyDailyBreakdown: keyBreakdown,
      accountTrend,
      database: sizes[0],
    });
  } finally {
    await db.close();
    await created.drop();
  }
}

await main();
