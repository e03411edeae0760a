/**
 * Spend per owner (ApiKey `spec.owner`, the member budgets) of one namespace over today, the last
 * 7 days and the last 30 days (days in the console's time zone, today included), from the
 * records' `owner` column (index `usage_records_owner_time`). Keys without an owner are left out.
 */
import { readNumber, type LedgerQueryable } from '../ledger-database.js';
import { startOfLocalDay } from './local-time.js';
import { fromMs, type SqlQuery } from './usage-sums.js';

export interface MemberSpendQuery {
  namespace: string;
  now: number;
  timeZone: string;
}

export interface MemberSpend {
  owner: string;
  todayNano: number;
  sevenDaysNano: number;
  thirtyDaysNano: number;
  requests30Days: number;
}

export function buildMemberSpendSql(query: MemberSpendQuery): SqlQuery {
  const today = startOfLocalDay(query.now, query.timeZone);
  const week = startOfLocalDay(query.now, query.timeZone, 6);
  const month = startOfLocalDay(query.now, query.timeZone, 29);
  return {
    text: `SELECT owner,
        coalesce(sum(cost_nano) FILTER (WHERE time >= ${fromMs('$2')}), 0)::text AS today,
        coalesce(sum(cost_nano) FILTER (WHERE time >= ${fromMs('$3')}), 0)::text AS week,
        coalesce(sum(cost_nano), 0)::text AS month, count(*)::text AS requests
      FROM usage_records
      WHERE namespace = $1 AND owner IS NOT NULL AND time >= ${fromMs('$4')}
      GROUP BY owner ORDER BY sum(cost_nano) DESC, owner`,
    values: [query.namespace, today, week, month],
  };
}

export async function queryMemberSpend(
  db: LedgerQueryable,
  query: MemberSpendQuery,
): Promise<MemberSpend[]> {
  const built = buildMemberSpendSql(query);
  const rows = await db.query(built.text, built.values);
  return rows.map((row) => ({
    owner: String(row.owner),
    todayNano: readNumber(row.today),
    sevenDaysNano: readNumber(row.week),
    thirtyDaysNano: readNumber(row.month),
    requests30Days: readNumber(row.requests),
  }));
}
