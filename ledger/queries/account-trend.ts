/**
 * Per account (namespace): requests, tokens by bucket and cost per hour or per local day, and the
 * model distribution, from the account's hourly rollups (one row per hour and model, whatever the
 * number of keys; one key's distribution from the per-key rollups). Ranges are [from, to) in epoch
 * ms, at hour granularity (the rollups' unit).
 */
import type { LedgerQueryable } from '../ledger-database.js';
import { checkTimeZone } from './local-time.js';
import {
  fromMs,
  ROLLUP_SUMS,
  toMs,
  usageSumsOf,
  type SqlQuery,
  type UsageSums,
} from './usage-sums.js';

export interface AccountTrendQuery {
  namespace: string;
  from: number;
  to: number;
  bucket: 'hour' | 'day';
  timeZone: string;
}

export interface TrendPoint extends UsageSums {
  /** Epoch ms the bucket starts. */
  start: number;
  /** `YYYY-MM-DD` (day) or `YYYY-MM-DDTHH:00` (hour), local to the time zone. */
  label: string;
}

export function buildAccountTrendSql(query: AccountTrendQuery): SqlQuery {
  const unit = query.bucket === 'day' ? 'day' : 'hour';
  const format = unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM-DD"T"HH24:00';
  return {
    text: `SELECT ${toMs('local_bucket AT TIME ZONE $2')} AS start,
        to_char(local_bucket, '${format}') AS label, t.*
      FROM (
        SELECT date_trunc('${unit}', hour AT TIME ZONE $2) AS local_bucket, ${ROLLUP_SUMS}
        FROM usage_rollups_account_hourly
        WHERE namespace = $1 AND hour >= ${fromMs('$3')} AND hour < ${fromMs('$4')}
        GROUP BY 1
      ) t ORDER BY local_bucket`,
    values: [query.namespace, query.timeZone, query.from, query.to],
  };
}

export async function queryAccountTrend(
  db: LedgerQueryable,
  query: AccountTrendQuery,
): Promise<TrendPoint[]> {
  checkTimeZone(query.timeZone);
  const built = buildAccountTrendSql(query);
  const rows = await db.query(built.text, built.values);
  return rows.map((row) => ({
    start: Number(row.start),
    label: String(row.label),
    ...usageSumsOf(row),
  }));
}

export interface ModelDistributionQuery {
  namespace: string;
  /** Only this key's usage when set. */
  keyUid?: string;
  from: number;
  to: number;
}

export interface ModelShare extends UsageSums {
  model: string;
  /** Share of the range's cost (0 when the range cost nothing). */
  costShare: number;
}

export function buildModelDistributionSql(query: ModelDistributionQuery): SqlQuery {
  const byKey = query.keyUid === undefined ? '' : 'AND key_uid = $4';
  const table =
    query.keyUid === undefined ? 'usage_rollups_account_hourly' : 'usage_rollups_hourly';
  return {
    text: `SELECT model, ${ROLLUP_SUMS}
      FROM ${table}
      WHERE namespace = $1 AND hour >= ${fromMs('$2')} AND hour < ${fromMs('$3')} ${byKey}
      GROUP BY model ORDER BY sum(cost_nano) DESC, model`,
    values: [
      query.namespace,
      query.from,
      query.to,
      ...(query.keyUid === undefined ? [] : [query.keyUid]),
    ],
  };
}

export async function queryModelDistribution(
  db: LedgerQueryable,
  query: ModelDistributionQuery,
): Promise<ModelShare[]> {
  const built = buildModelDistributionSql(query);
  const rows = (await db.query(built.text, built.values)).map((row) => ({
    model: String(row.model),
    ...usageSumsOf(row),
  }));
  const total = rows.reduce((sum, row) => sum + row.costNano, 0);
  return rows.map((row) => ({ ...row, costShare: total > 0 ? row.costNano / total : 0 }));
}
