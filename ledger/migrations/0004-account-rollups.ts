/**
 * Rollups above the per-key hourly ones, for the account-wide reads that would otherwise sum a row
 * per key, hour and model (with a thousand keys, about one row per record): per account, hour and
 * model (`usage_rollups_account_hourly`: the account trend and model distribution) and per key and
 * UTC day (`usage_rollups_key_daily`: the top keys). Statement triggers on `usage_rollups_hourly`
 * add what each insert or update of it adds (and subtract what a delete removes), so whatever
 * writes the hourly rollups keeps these in step in the same transaction; existing rows are summed
 * once here. Retention drops their old rows with the rest.
 */
import { sql, type Kysely, type Migration } from 'kysely';

const SUMS = [
  'requests',
  'estimated_requests',
  'error_requests',
  'input_uncached_tokens',
  'cache_read_tokens',
  'cache_write_5m_tokens',
  'cache_write_1h_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cost_nano',
  'duration_ms',
] as const;

const SUM_COLUMNS = SUMS.map((column) => `${column} bigint NOT NULL`).join(',\n  ');

/** The two targets: their key columns, and how an hourly row maps onto them. */
const TARGETS = [
  {
    table: 'usage_rollups_account_hourly',
    keys: ['namespace', 'hour', 'model'],
    select: 'namespace, hour, model',
  },
  {
    table: 'usage_rollups_key_daily',
    keys: ['namespace', 'day', 'key_uid'],
    select: "namespace, date_trunc('day', hour, 'UTC'), key_uid",
  },
] as const;

/** Adds `rows` (an hourly-rollup-shaped relation with signed sums) into both targets. */
function addInto(rows: string): string[] {
  return TARGETS.map(
    (target) => `INSERT INTO ${target.table} AS t (${target.keys.join(', ')}, ${SUMS.join(', ')})
    SELECT ${target.select}, ${SUMS.map((column) => `sum(${column})`).join(', ')}
    FROM ${rows} AS d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (${target.keys.join(', ')}) DO UPDATE SET
      ${SUMS.map((column) => `${column} = t.${column} + EXCLUDED.${column}`).join(', ')}`,
  );
}

const signed = (relation: string, sign: '' | '-') =>
  `(SELECT namespace, key_uid, hour, model, ${SUMS.map((column) => `${sign}${column} AS ${column}`).join(', ')} FROM ${relation})`;

const CHANGED = `(SELECT n.namespace, n.key_uid, n.hour, n.model,
      ${SUMS.map((column) => `n.${column} - o.${column} AS ${column}`).join(', ')}
    FROM new_rows n JOIN old_rows o USING (namespace, key_uid, hour, model))`;

function triggerFunction(name: string, rows: string): string {
  return `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    ${addInto(rows).join(';\n    ')};
    RETURN NULL;
  END
  $fn$`;
}

const RETENTION = `CREATE OR REPLACE FUNCTION ledger_apply_retention(cutoff_day date)
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
    DELETE FROM usage_rollups_account_hourly WHERE hour < cutoff;
    DELETE FROM usage_rollups_key_daily WHERE day < cutoff;
    DELETE FROM usage_record_ids WHERE time < cutoff;
    RETURN dropped;
  END
  $fn$`;

const STATEMENTS = [
  `CREATE TABLE usage_rollups_account_hourly (
  namespace text NOT NULL,
  hour timestamptz NOT NULL,
  model text NOT NULL,
  ${SUM_COLUMNS},
  PRIMARY KEY (namespace, hour, model)
)`,
  `CREATE TABLE usage_rollups_key_daily (
  namespace text NOT NULL,
  day timestamptz NOT NULL,
  key_uid text NOT NULL,
  ${SUM_COLUMNS},
  PRIMARY KEY (namespace, day, key_uid)
)`,
  ...addInto(signed('usage_rollups_hourly', '')),
  triggerFunction('ledger_rollups_inserted', signed('new_rows', '')),
  triggerFunction('ledger_rollups_updated', CHANGED),
  triggerFunction('ledger_rollups_deleted', signed('old_rows', '-')),
  `CREATE TRIGGER usage_rollups_hourly_inserted AFTER INSERT ON usage_rollups_hourly
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollups_inserted()`,
  `CREATE TRIGGER usage_rollups_hourly_updated AFTER UPDATE ON usage_rollups_hourly
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollups_updated()`,
  `CREATE TRIGGER usage_rollups_hourly_deleted AFTER DELETE ON usage_rollups_hourly
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollups_deleted()`,
  RETENTION,
];

async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  const drops = [
    'DROP TRIGGER usage_rollups_hourly_deleted ON usage_rollups_hourly',
    'DROP TRIGGER usage_rollups_hourly_updated ON usage_rollups_hourly',
    'DROP TRIGGER usage_rollups_hourly_inserted ON usage_rollups_hourly',
    'DROP FUNCTION ledger_rollups_deleted()',
    'DROP FUNCTION ledger_rollups_updated()',
    'DROP FUNCTION ledger_rollups_inserted()',
    'DROP TABLE usage_rollups_key_daily',
    'DROP TABLE usage_rollups_account_hourly',
  ];
  for (const statement of drops) await sql.raw(statement).execute(db);
  // The retention function of 0001, without the two tables.
  await sql
    .raw(
      RETENTION.replace(/\n\s+DELETE FROM usage_rollups_account_hourly[^\n]*/, '').replace(
        /\n\s+DELETE FROM usage_rollups_key_daily[^\n]*/,
        '',
      ),
    )
    .execute(db);
}

export const accountRollupsMigration: Migration = { up, down };
