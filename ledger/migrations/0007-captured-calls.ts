/**
 * Captured bodies (opt-in per Group or ApiKey, docs/captures.md): `captured_calls`, one row
 * per captured call with its request and response body and their metadata, partitioned by the UTC
 * day the capture EXPIRES (`expires_at`), so retention drops whole partitions of expired captures
 * whatever each key's `retentionDays`. `captured_call_ids` admits each request id once (as
 * `usage_record_ids` does for the records). The two functions create the daily partitions and drop
 * the expired ones, under the partition lock of migration 0001.
 */
import { sql, type Kysely, type Migration } from 'kysely';

const BODY_COLUMNS = (side: 'request' | 'response') => `
    ${side}_text text,
    ${side}_bytes bigint,
    ${side}_truncated boolean,
    ${side}_content_type text,
    ${side}_redactions jsonb`;

const STATEMENTS = [
  `CREATE TABLE captured_calls (
    expires_at timestamptz NOT NULL,
    request_id text NOT NULL,
    at timestamptz NOT NULL,
    namespace text NOT NULL,
    key_uid text NOT NULL,
    key_name text NOT NULL,
    group_name text NOT NULL,
    platform text NOT NULL,
    path text NOT NULL,
    model text,
    streamed boolean NOT NULL,
    ${BODY_COLUMNS('request')},
    ${BODY_COLUMNS('response')},
    PRIMARY KEY (request_id, expires_at)
  ) PARTITION BY RANGE (expires_at)`,
  `CREATE TABLE captured_call_ids (
    request_id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX captured_call_ids_expires_at ON captured_call_ids (expires_at)`,
  // Creates the missing daily partitions [first_day, first_day + day_count); returns how many.
  `CREATE FUNCTION ledger_create_capture_partitions(first_day date, day_count integer)
  RETURNS integer LANGUAGE plpgsql AS $fn$
  DECLARE
    day date;
    partition_name text;
    created integer := 0;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('tollgate.ledger.partitions'));
    FOR offset_days IN 0 .. day_count - 1 LOOP
      day := first_day + offset_days;
      partition_name := 'captured_calls_p' || to_char(day, 'YYYYMMDD');
      IF to_regclass(partition_name) IS NULL THEN
        EXECUTE format(
          'CREATE TABLE %I PARTITION OF captured_calls FOR VALUES FROM (%L) TO (%L)',
          partition_name,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00',
          to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
        created := created + 1;
      END IF;
    END LOOP;
    RETURN created;
  END
  $fn$`,
  // Drops the partitions of captures that expired before today (UTC) and their request ids.
  `CREATE FUNCTION ledger_drop_expired_captures(today date)
  RETURNS integer LANGUAGE plpgsql AS $fn$
  DECLARE
    child record;
    dropped integer := 0;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('tollgate.ledger.partitions'));
    FOR child IN
      SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'captured_calls'::regclass
        AND c.relname ~ '^captured_calls_p[0-9]{8}$'
    LOOP
      IF to_date(substr(child.relname, 17), 'YYYYMMDD') < today THEN
        EXECUTE format('DROP TABLE %I', child.relname);
        dropped := dropped + 1;
      END IF;
    END LOOP;
    DELETE FROM captured_call_ids
      WHERE expires_at < (to_char(today, 'YYYY-MM-DD') || ' 00:00:00+00')::timestamptz;
    RETURN dropped;
  END
  $fn$`,
];

async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  const drops = [
    'DROP FUNCTION ledger_drop_expired_captures(date)',
    'DROP FUNCTION ledger_create_capture_partitions(date, integer)',
    'DROP TABLE captured_call_ids',
    'DROP TABLE captured_calls',
  ];
  for (const statement of drops) await sql.raw(statement).execute(db);
}

export const capturedCallsMigration: Migration = { up, down };
