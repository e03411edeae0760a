/**
 * Token counts are no requests (queries/token-count-records.ts): from this migration on the insert
 * leaves them out of the hourly rollups and the per-key totals. This takes out those already
 * counted: each hourly row loses the token counts of its key, hour and model (the statement
 * triggers of 0004 take the same out of the account and key-day rollups), rows left with no
 * request are removed from all three, and the totals lose their count.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { IS_TOKEN_COUNT_SQL } from '../queries/token-count-records.js';
import { TOKEN_COST_COLUMNS } from '../queries/usage-sums.js';

const SUMS = [
  ['requests', 'count(*)'],
  ['estimated_requests', 'count(*) FILTER (WHERE estimated)'],
  ['error_requests', "count(*) FILTER (WHERE outcome <> 'success')"],
  ...TOKEN_COST_COLUMNS.map((column) => [column, `sum(${column})`] as const),
  ['duration_ms', 'sum(duration_ms)'],
] as const;

const STATEMENTS = [
  `WITH counted AS (
    SELECT namespace, key_uid, date_trunc('hour', time, 'UTC') AS hour, model,
      ${SUMS.map(([column, sum]) => `${sum} AS ${column}`).join(', ')}
    FROM usage_records WHERE ${IS_TOKEN_COUNT_SQL} GROUP BY 1, 2, 3, 4
  )
  UPDATE usage_rollups_hourly AS t SET
    ${SUMS.map(([column]) => `${column} = t.${column} - c.${column}`).join(', ')}
  FROM counted AS c
  WHERE t.namespace = c.namespace AND t.key_uid = c.key_uid AND t.hour = c.hour
    AND t.model = c.model`,
  'DELETE FROM usage_rollups_hourly WHERE requests = 0',
  'DELETE FROM usage_rollups_account_hourly WHERE requests = 0',
  'DELETE FROM usage_rollups_key_daily WHERE requests = 0',
  `WITH counted AS (
    SELECT namespace, key_uid, count(*) AS requests
    FROM usage_records WHERE ${IS_TOKEN_COUNT_SQL} GROUP BY 1, 2
  )
  UPDATE usage_totals AS t SET requests = t.requests - c.requests
  FROM counted AS c WHERE t.namespace = c.namespace AND t.key_uid = c.key_uid`,
];

async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

/** Nothing to undo in the schema: the token counts stay out of the rollups. */
async function down(): Promise<void> {
  await Promise.resolve();
}

export const tokenCountsOutOfRollupsMigration: Migration = { up, down };
