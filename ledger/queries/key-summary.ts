/**
 * Per key: today, the last N days (default 30) with a daily breakdown, and quota consumption. Sums
 * come from the hourly rollups; days are local days of the configured time zone (for zones whose
 * offset is not a whole number of hours, an hour belongs to the day it starts in).
 */
import type { LedgerQueryable } from '../ledger-database.js';
import { checkTimeZone, localDay, startOfLocalDay } from './local-time.js';
import {
  addUsageSums,
  EMPTY_SUMS,
  fromMs,
  ROLLUP_SUMS,
  usageSumsOf,
  type SqlQuery,
  type UsageSums,
} from './usage-sums.js';

export interface KeySummaryQuery {
  namespace: string;
  keyUid: string;
  now: number;
  timeZone: string;
  /** Days in the breakdown, today included (default 30). */
  days?: number;
  /** The key's quota and the time it was last reset (epoch ms; 0 when never). */
  quota?: { limitNano: number; since: number };
}

export interface DailyUsage extends UsageSums {
  /** `YYYY-MM-DD` in the time zone. */
  day: string;
}

export interface KeySummary {
  timeZone: string;
  today: UsageSums;
  lastDays: UsageSums;
  /** One entry per day, oldest first, days without usage included. */
  daily: DailyUsage[];
  quota: { limitNano: number; usedNano: number; remainingNano: number; fraction: number } | null;
}

export function buildKeyDailySql(query: KeySummaryQuery): SqlQuery {
  const days = query.days ?? 30;
  const from = startOfLocalDay(query.now, query.timeZone, days - 1);
  return {
    text: `SELECT to_char(hour AT TIME ZONE $3, 'YYYY-MM-DD') AS day, ${ROLLUP_SUMS}
      FROM usage_rollups_hourly
      WHERE namespace = $1 AND key_uid = $2 AND hour >= ${fromMs('$4')} AND hour <= ${fromMs('$5')}
      GROUP BY 1 ORDER BY 1`,
    values: [query.namespace, query.keyUid, query.timeZone, from, query.now],
  };
}

/** Cost since `since`: whole hours from the rollups, the partial first hour from the records. */
export function buildQuotaUsedSql(query: {
  namespace: string;
  keyUid: string;
  since: number;
}): SqlQuery {
  const firstWholeHour = Math.ceil(query.since / 3_600_000) * 3_600_000;
  return {
    text: `SELECT
      coalesce((SELECT sum(cost_nano) FROM usage_rollups_hourly
        WHERE namespace = $1 AND key_uid = $2 AND hour >= ${fromMs('$4')}), 0)::text
      AS whole_hours,
      coalesce((SELECT sum(cost_nano) FROM usage_records
        WHERE namespace = $1 AND key_uid = $2
          AND time >= ${fromMs('$3')} AND time < ${fromMs('$4')}), 0)::text AS first_hour`,
    values: [query.namespace, query.keyUid, query.since, firstWholeHour],
  };
}

function dayLabels(query: KeySummaryQuery): string[] {
  const labels: string[] = [];
  for (let back = (query.days ?? 30) - 1; back >= 0; back--) {
    labels.push(localDay(startOfLocalDay(query.now, query.timeZone, back), query.timeZone));
  }
  return labels;
}

function usageSumsWithoutDay(daily: DailyUsage): UsageSums {
  const { requests, estimatedRequests, errorRequests, tokens, costNano } = daily;
  return { requests, estimatedRequests, errorRequests, tokens, costNano };
}

export async function queryKeySummary(
  db: LedgerQueryable,
  query: KeySummaryQuery,
): Promise<KeySummary> {
  checkTimeZone(query.timeZone);
  const daily = buildKeyDailySql(query);
  const byDay = new Map<string, UsageSums>();
  for (const row of await db.query(daily.text, daily.values)) {
    byDay.set(String(row.day), usageSumsOf(row));
  }
  const breakdown = dayLabels(query).map((day) => ({ day, ...(byDay.get(day) ?? EMPTY_SUMS) }));
  const lastDays = breakdown.reduce<UsageSums>(addUsageSums, EMPTY_SUMS);
  const last = breakdown.at(-1);
  const todaySums: UsageSums = last === undefined ? EMPTY_SUMS : usageSumsWithoutDay(last);
  let quota: KeySummary['quota'] = null;
  if (query.quota !== undefined) {
    const used = buildQuotaUsedSql({ ...query, since: query.quota.since });
    const [row] = await db.query(used.text, used.values);
    const usedNano = Number(row?.whole_hours ?? 0) + Number(row?.first_hour ?? 0);
    const { limitNano } = query.quota;
    quota = {
      limitNano,
      usedNano,
      remainingNano: Math.max(0, limitNano - usedNano),
      fraction: limitNano > 0 ? usedNano / limitNano : 0,
    };
  }
  return { timeZone: query.timeZone, today: todaySums, lastDays, daily: breakdown, quota };
}
