/**
 * An account's keys ranked by cost over a range (ties: more requests first, then the key uid): the
 * whole UTC days of the range from the per-key daily rollups, the hours before the first and after
 * the last whole day from the hourly ones, so a 30-day range reads about 30 rows per key. The
 * rollups hold key uids only: each ranked key's name is the one its latest record carries (one
 * index probe per ranked key, so the cost does not grow with the records).
 */
import type { LedgerQueryable } from '../ledger-database.js';
import {
  fromMs,
  ROLLUP_SUM_COLUMNS,
  ROLLUP_SUMS,
  usageSumsOf,
  type SqlQuery,
  type UsageSums,
} from './usage-sums.js';

const DAY = 86_400_000;

export interface TopKeysQuery {
  namespace: string;
  /** Inclusive epoch ms (hour granularity, the rollups' unit). */
  from: number;
  /** Exclusive epoch ms. */
  to: number;
  /** 1 to 100. */
  limit: number;
}

export interface TopKey extends UsageSums {
  keyUid: string;
  /** The name in the key's latest record (a key renamed or deleted since keeps it). */
  keyName: string;
  /** Share of the range's cost among all keys (0 when the range cost nothing). */
  costShare: number;
}

export function buildTopKeysSql(query: TopKeysQuery): SqlQuery {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100) {
    throw new RangeError('limit must be between 1 and 100');
  }
  // Whole UTC days inside [from, to): [firstDay, endDay); none when the range is shorter.
  const firstDay = Math.ceil(query.from / DAY) * DAY;
  const endDay = Math.max(firstDay, Math.floor(query.to / DAY) * DAY);
  const columns = `key_uid, ${ROLLUP_SUM_COLUMNS.join(', ')}`;
  return {
    text: `WITH parts AS (
        SELECT ${columns} FROM usage_rollups_key_daily
        WHERE namespace = $1 AND day >= ${fromMs('$5')} AND day < ${fromMs('$6')}
        UNION ALL
        SELECT ${columns} FROM usage_rollups_hourly
        WHERE namespace = $1 AND hour >= ${fromMs('$2')} AND hour < ${fromMs('$3')}
          AND NOT (hour >= ${fromMs('$5')} AND hour < ${fromMs('$6')})
      ), per_key AS (
        SELECT key_uid, ${ROLLUP_SUMS}, sum(cost_nano) AS cost_sort, sum(requests) AS requests_sort
        FROM parts GROUP BY key_uid
      ), ranked AS (
        SELECT * FROM per_key ORDER BY cost_sort DESC, requests_sort DESC, key_uid LIMIT $4
      )
      SELECT ranked.*, (SELECT coalesce(sum(cost_sort), 0) FROM per_key)::text AS total_cost,
        (SELECT r.key_name FROM usage_records r
          WHERE r.namespace = $1 AND r.key_uid = ranked.key_uid
          ORDER BY r.time DESC LIMIT 1) AS key_name
      FROM ranked ORDER BY cost_sort DESC, requests_sort DESC, key_uid`,
    values: [query.namespace, query.from, query.to, query.limit, firstDay, endDay],
  };
}

export async function queryTopKeys(db: LedgerQueryable, query: TopKeysQuery): Promise<TopKey[]> {
  const built = buildTopKeysSql(query);
  const rows = await db.query(built.text, built.values);
  return rows.map((row) => {
    const sums = usageSumsOf(row);
    const total = Number(row.total_cost);
    return {
      keyUid: String(row.key_uid),
      keyName: typeof row.key_name === 'string' ? row.key_name : String(row.key_uid),
      ...sums,
      costShare: total > 0 ? sums.costNano / total : 0,
    };
  });
}
