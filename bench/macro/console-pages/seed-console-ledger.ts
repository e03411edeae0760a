/**
 * Seeds the console benchmark's ledger: `records` usage records of the given keys over the last 30
 * days (newest at `now`), generated inside PostgreSQL one UTC day at a time, with their request
 * ids, hourly rollups and per-key totals, exactly the rows the ledger's own insert path writes.
 */
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';

const DAY = 86_400_000;
const MODELS = [
  'claude-sonnet-4-6',
  'claude-opus-4-1',
  'claude-haiku-4-5',
  'gpt-5.5',
  'gemini-2.5-pro',
];

export interface SeedKeys {
  namespace: string;
  uids: string[];
  names: string[];
}

async function seedSpan(
  db: LedgerDatabase,
  span: { start: number; end: number; count: number; index: number; keys: SeedKeys },
): Promise<void> {
  const { keys } = span;
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL synchronous_commit = off');
    await tx.query(
      `INSERT INTO usage_records (time, request_id, charged_at, namespace, account_uid, key_uid,
         key_name, group_name, platform, model, upstream_model, upstream, input_uncached_tokens,
         cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens,
         reasoning_tokens, cost_nano, price_version, multiplier, duration_ms, ttfb_ms, status,
         outcome, stream, accuracy, estimated, flags)
       SELECT t, 'bench-' || $3 || '-' || i, t + interval '1500 ms', $4, 'bench-account',
         ($5::text[])[k + 1], ($6::text[])[k + 1], 'anthropic', 'Anthropic',
         ($7::text[])[(1 + (i * 31) % 5)::int], ($7::text[])[(1 + (i * 31) % 5)::int], 'demo-anthropic',
         (i * 7919) % 4000, (i * 104729) % 20000, (i * 31) % 500, 0, (i * 1009) % 2000,
         (i * 13) % 300, 1000 + (i * 7907) % 900000, 'bench', 1, 500 + (i % 5000), 200,
         CASE WHEN i % 97 = 0 THEN 502 WHEN i % 50 = 0 THEN 429 ELSE 200 END,
         CASE WHEN i % 97 = 0 THEN 'server_error' WHEN i % 50 = 0 THEN 'client_error'
           ELSE 'success' END,
         true, 'exact', false, '{}'
       FROM generate_series(0::bigint, $2::bigint - 1) AS i,
         LATERAL (SELECT (timestamptz 'epoch' + ($1::bigint + (i * ($8::bigint - $1::bigint)) / $2)
           * interval '1 ms') AS t, ((i * 7) % $9)::int AS k) AS g`,
      [
        span.start,
        span.count,
        span.index,
        keys.namespace,
        keys.uids,
        keys.names,
        MODELS,
        span.end,
        keys.uids.length,
      ],
    );
    const range = [span.start, span.end];
    const inSpan = `time >= timestamptz 'epoch' + $1::bigint * interval '1 ms'
      AND time < timestamptz 'epoch' + $2::bigint * interval '1 ms'`;
    await tx.query(
      `INSERT INTO usage_record_ids SELECT request_id, time FROM usage_records WHERE ${inSpan}`,
      range,
    );
    await tx.query(
      `INSERT INTO usage_rollups_hourly SELECT namespace, key_uid, date_trunc('hour', time, 'UTC'),
         model, count(*), count(*) FILTER (WHERE estimated), count(*) FILTER (WHERE outcome <> 'success'),
         sum(input_uncached_tokens), sum(cache_read_tokens), sum(cache_write_5m_tokens),
         sum(cache_write_1h_tokens), sum(output_tokens), sum(reasoning_tokens), sum(cost_nano),
         sum(duration_ms)
       FROM usage_records WHERE ${inSpan} GROUP BY 1, 2, 3, 4`,
      range,
    );
  });
}

export async function seedConsoleLedger(
  db: LedgerDatabase,
  options: { keys: SeedKeys; records: number; now: number; log: (line: string) => void },
): Promise<void> {
  // Whole hours, so that no hour's rollup is split between two spans.
  const first = Math.floor(options.now / 3_600_000) * 3_600_000 - 30 * DAY;
  await db.query('SELECT ledger_create_partitions($1::date, 33)', [
    new Date(first - DAY).toISOString().slice(0, 10),
  ]);
  const started = Date.now();
  for (let index = 0; index < 30; index++) {
    const count = Math.floor(options.records / 30) + (index < options.records % 30 ? 1 : 0);
    const start = first + index * DAY;
    await seedSpan(db, { start, end: start + DAY, count, index, keys: options.keys });
    options.log(`seeded day ${index + 1}/30 (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  await db.query(
    `INSERT INTO usage_totals SELECT namespace, key_uid, count(*), sum(cost_nano), max(charged_at)
     FROM usage_records GROUP BY 1, 2`,
  );
  await db.query('ANALYZE');
}
