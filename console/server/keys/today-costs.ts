/**
 * Today's cost of every key of a namespace in one query (the keys table's "Today" column): the
 * hourly rollups from the start of the local day (the console's time zone) to now, summed per key.
 * The same figure as a key summary's `today` (an hour belongs to the day it starts in).
 */
import type { LedgerQueryable } from '../../../ledger/ledger-database.js';
import { checkTimeZone, startOfLocalDay } from '../../../ledger/queries/local-time.js';
import { fromMs, type SqlQuery } from '../../../ledger/queries/usage-sums.js';

export interface TodayCostsQuery {
  namespace: string;
  now: number;
  timeZone: string;
}

/** Pure: one row per key used today, `key_uid` and `cost_nano` (as text). */
export function buildTodayCostsSql(query: TodayCostsQuery): SqlQuery {
  checkTimeZone(query.timeZone);
  return {
    text: `SELECT key_uid, sum(cost_nano)::text AS cost_nano
      FROM usage_rollups_hourly
      WHERE namespace = $1 AND hour >= ${fromMs('$2')} AND hour <= ${fromMs('$3')}
      GROUP BY key_uid`,
    values: [query.namespace, startOfLocalDay(query.now, query.timeZone, 0), query.now],
  };
}

/** Key uid → today's cost in nano-USD; keys without usage today are absent. */
export async function queryTodayCosts(
  db: LedgerQueryable,
  query: TodayCostsQuery,
): Promise<Map<string, number>> {
  const sql = buildTodayCostsSql(query);
  const costs = new Map<string, number>();
  for (const row of await db.query(sql.text, sql.values)) {
    costs.set(String(row.key_uid), Number(row.cost_nano));
  }
  return costs;
}
