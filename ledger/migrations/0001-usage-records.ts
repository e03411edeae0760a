/**
 * The ledger's first schema: `usage_records` partitioned by day on `time`, the request id registry
 * that makes inserts idempotent across partitions, hourly rollups per key and model, lifetime
 * totals per key, rejected stream entries, and the partition and retention functions.
 * docs/ledger.md describes every column.
 */
import { sql, type Kysely, type Migration } from 'kysely';

const TOKEN_COLUMNS = `
  input_uncached_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_5m_tokens bigint NOT NULL DEFAULT 0,
  cache_write_1h_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  reasoning_tokens bigint NOT NULL DEFAULT 0`;

const STATEMENTS = [
  `CREATE TABLE usage_records (
    time timestamptz NOT NULL,
    request_id text NOT NULL,
    charged_at timestamptz NOT NULL,
    namespace text NOT NULL,
    account_uid text NOT NULL,
    key_uid text NOT NULL,
    key_name text NOT NULL,
    group_name text NOT NULL,
    platform text NOT NULL,
    model text NOT NULL,
    upstream_model text NOT NULL,
    upstream text,
    ${TOKEN_COLUMNS},
    cost_nano bigint NOT NULL,
    price_version text NOT NULL,
    multiplier numeric NOT NULL,
    duration_ms integer NOT NULL,
    ttfb_ms integer,
    status smallint NOT NULL,
    outcome text NOT NULL,
    stream boolean NOT NULL,
    accuracy text NOT NULL,
    estimated boolean NOT NULL,
    flags text[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (request_id, time)
  ) PARTITION BY RANGE (time)`,
  `CREATE INDEX usage_records_namespace_time ON usage_records (namespace, time, request_id)`,
  `CREATE INDEX usage_records_key_time ON usage_records (namespace, key_uid, time, request_id)`,
  `CREATE TABLE usage_record_ids (
    request_id text PRIMARY KEY,
    time timestamptz NOT NULL
  )`,
  `CREATE INDEX usage_record_ids_time ON usage_record_ids (time)`,
  `CREATE TABLE usage_rollups_hourly (
    namespace text NOT NULL,
    key_uid text NOT NULL,
    hour timestamptz NOT NULL,
    model text NOT NULL,
    requests bigint NOT NULL,
    estimated_requests bigint NOT NULL,
    error_requests bigint NOT NULL,
    ${TOKEN_COLUMNS},
    cost_nano bigint NOT NULL,
    duration_ms bigint NOT NULL,
    PRIMARY KEY (namespace, key_uid, hour, model)
  )`,
  `CREATE INDEX usage_rollups_hourly_namespace_hour ON usage_rollups_hourly (namespace, hour)`,
  `CREATE TABLE usage_totals (
    namespace text NOT NULL,
    key_uid text NOT NULL,
    requests bigint NOT NULL,
    cost_nano bigint NOT NULL,
    last_charged_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, key_uid)
  )`,
  `CREATE TABLE usage_rejected_entries (
    source text NOT NULL,
    entry_id text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    reason text NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (source, entry_id)
  )`,
  // Creates the missing daily partitions [first_day, first_day + day_count); returns how many.
  `CREATE FUNCTION ledger_create_partitions(first_day date, day_count integer)
  RETURNS integer LANGUAGE plpgsql AS $fn$
  DECLARE
    day date;
    partition_name text;
    created integer := 0;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('tollgate.ledger.partitions'));
    FOR offset_days IN 0 .. day_count - 1 LOOP
      day := first_day + offset_days;
      partition_name := 'usage_records_p' || to_char(day, 'YYYYMMDD');
      IF to_regclass(partition_name) IS NULL THEN
        EXECUTE format(
          'CREATE TABLE %I PARTITION OF usage_records FOR VALUES FROM (%L) TO (%L)',
          partition_name,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00',
          to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
        created := created + 1;
      END IF;
    END LOOP;
    RETURN created;
  END
  $fn$`,
  // Drops the partitions that end at or before cutoff_day (UTC) and the matching rollups and ids.
  `CREATE FUNCTION ledger_apply_retention(cutoff_day date)
  RETURNS integer LANGUAGE plpgsql AS $fn$
  DECLARE
    child record;
    dropped integer := 0;
    cutoff timestamptz := (to_char(cutoff_day, 'YYYY-MM-DD') || ' 00:00:00+00')::timestamptz;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('tollgate.ledger.partitions'));
    FOR child IN
      SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'usage_records'::regclass
        AND c.relname ~ '^usage_records_p[0-9]{8}$'
    LOOP
      IF to_date(substr(child.relname, 16), 'YYYYMMDD') < cutoff_day THEN
        EXECUTE format('DROP TABLE %I', child.relname);
        dropped := dropped + 1;
      END IF;
    END LOOP;
    DELETE FROM usage_rollups_hourly WHERE hour < cutoff;
    DELETE FROM usage_record_ids WHERE time < cutoff;
    RETURN dropped;
  END
  $fn$`,
];

async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  const drops = [
    'DROP FUNCTION ledger_apply_retention(date)',
    'DROP FUNCTION ledger_create_partitions(date, integer)',
    'DROP TABLE usage_rejected_entries',
    'DROP TABLE usage_totals',
    'DROP TABLE usage_rollups_hourly',
    'DROP TABLE usage_record_ids',
    'DROP TABLE usage_records',
  ];
  for (const statement of drops) await sql.raw(statement).execute(db);
}

export const usageRecordsMigration: Migration = { up, down };
