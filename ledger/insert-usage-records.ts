/**
 * Inserts a batch of usage records in one statement (so one transaction): the request id registry
 * `usage_record_ids` admits each request id once, only the admitted records go into
 * `usage_records`, and exactly those are added to the hourly rollups and the per-key totals (token
 * counts excepted: they are no requests, token-count-records.ts). A retried batch, or a record
 * seen before in another batch, changes nothing.
 */
import { encodeJsonArrayInSlices } from './encode-json-array-in-slices.js';
import { ensurePartitions, forgetPartitions } from './ensure-partitions.js';
import { readNumber, type LedgerDatabase } from './ledger-database.js';
import { recordRow, type LedgerRecord } from './ledger-record.js';
import { IS_TOKEN_COUNT_SQL } from './queries/token-count-records.js';
import { ROLLUP_SUM_COLUMNS, TOKEN_COST_COLUMNS } from './queries/usage-sums.js';

const RECORD_COLUMNS = [
  'time',
  'request_id',
  'charged_at',
  'namespace',
  'account_uid',
  'key_uid',
  'key_name',
  'group_name',
  'platform',
  'model',
  'upstream_model',
  'upstream',
  ...TOKEN_COST_COLUMNS,
  'price_version',
  'multiplier',
  'duration_ms',
  'ttfb_ms',
  'status',
  'outcome',
  'stream',
  'accuracy',
  'estimated',
  'flags',
  'attempts',
  'owner',
] as const;

const TIME = (column: string) => `timestamptz 'epoch' + r.${column} * interval '1 millisecond'`;
const ADD = (table: string, column: string) =>
  `${column} = ${table}.${column} + EXCLUDED.${column}`;

export const INSERT_USAGE_RECORDS_SQL = `
WITH src AS (
  SELECT r.*, ${TIME('time_ms')} AS time, ${TIME('charged_at_ms')} AS charged_at
  FROM jsonb_to_recordset($1::jsonb) AS r(
    request_id text, time_ms bigint, charged_at_ms bigint, namespace text, account_uid text,
    key_uid text, key_name text, group_name text, platform text, model text,
    upstream_model text, upstream text, input_uncached_tokens bigint, cache_read_tokens bigint,
    cache_write_5m_tokens bigint, cache_write_1h_tokens bigint, output_tokens bigint,
    reasoning_tokens bigint, cost_nano bigint, price_version text, multiplier numeric,
    duration_ms integer, ttfb_ms integer, status smallint, outcome text, stream boolean,
    accuracy text, estimated boolean, flags text[], attempts smallint,
    owner text)
), ids AS (
  INSERT INTO usage_record_ids (request_id, time)
  SELECT request_id, time FROM src ORDER BY request_id
  ON CONFLICT (request_id) DO NOTHING
  RETURNING request_id
), inserted AS (
  INSERT INTO usage_records (${RECORD_COLUMNS.join(', ')})
  SELECT ${RECORD_COLUMNS.map((column) => `src.${column}`).join(', ')}
  FROM src JOIN ids USING (request_id)
  RETURNING namespace, key_uid, model, time, charged_at, outcome, estimated, duration_ms,
    ${TOKEN_COST_COLUMNS.join(', ')}, ${IS_TOKEN_COUNT_SQL} AS token_count
), requests AS (
  SELECT * FROM inserted WHERE NOT token_count
), rollups AS (
  INSERT INTO usage_rollups_hourly AS t (namespace, key_uid, hour, model, requests,
    estimated_requests, error_requests, ${TOKEN_COST_COLUMNS.join(', ')}, duration_ms)
  SELECT namespace, key_uid, date_trunc('hour', time, 'UTC'), model, count(*),
    count(*) FILTER (WHERE estimated), count(*) FILTER (WHERE outcome <> 'success'),
    ${TOKEN_COST_COLUMNS.map((column) => `sum(${column})`).join(', ')}, sum(duration_ms)
  FROM requests GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (namespace, key_uid, hour, model) DO UPDATE SET
    ${[...ROLLUP_SUM_COLUMNS, 'duration_ms'].map((column) => ADD('t', column)).join(', ')}
), totals AS (
  INSERT INTO usage_totals AS t (namespace, key_uid, requests, cost_nano, last_charged_at)
  SELECT namespace, key_uid, count(*), sum(cost_nano), max(charged_at)
  FROM requests GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (namespace, key_uid) DO UPDATE SET
    ${ADD('t', 'requests')}, ${ADD('t', 'cost_nano')},
    last_charged_at = greatest(t.last_charged_at, EXCLUDED.last_charged_at)
)
SELECT count(*) AS inserted FROM inserted`;

/** The insert found no partition for a row (one this process had created was dropped since). */
export function isMissingPartition(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '23514' && typeof message === 'string' && message.includes('no partition');
}

/** Inserts the records once each (by request id); returns how many were new. */
export async function insertUsageRecords(
  db: LedgerDatabase,
  records: readonly LedgerRecord[],
): Promise<number> {
  const unique = new Map<string, LedgerRecord>();
  for (const record of records) {
    if (!unique.has(record.requestId)) unique.set(record.requestId, record);
  }
  if (unique.size === 0) return 0;
  const rows = await encodeJsonArrayInSlices([...unique.values()], recordRow);
  const times = [...unique.values()].map((record) => record.time);
  for (let attempt = 0; ; attempt++) {
    await ensurePartitions(db, times);
    try {
      // One statement is one transaction of its own: no BEGIN and COMMIT around it.
      const result = await db.query<{ inserted: unknown }>(INSERT_USAGE_RECORDS_SQL, [rows]);
      return readNumber(result[0]?.inserted);
    } catch (error) {
      // A partition this process created was dropped since (retention): create it again once.
      if (attempt > 0 || !isMissingPartition(error)) throw error;
      forgetPartitions(db);
    }
  }
}
