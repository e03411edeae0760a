/**
 * The plan and member windows of one namespace rebuilt from the ledger after the store lost them
 * (store/budget-windows.ts): the calendar windows (day, week from Monday, month in the account's
 * time zone) hold the spend charged since the current one began, ending where it ends; the plan's
 * five-hour window is replayed over the namespace's charges with the rolling rule of key windows.
 * Member windows sum the records of each owner (`usage_records.owner`). The ledger does not know
 * when the account subscribed: a calendar window counts every charge of the namespace in it.
 */
import { readNumber, type LedgerQueryable } from '../ledger-database.js';
import { fromMs, toMs, type SqlQuery } from '../queries/usage-sums.js';
import { replayWindows } from './replay-windows.js';
import { computeCalendarEnds, computeCalendarStarts } from '../../store/compute-calendar-ends.js';
import type { RestoredBudgets } from '../../store/store.js';

export interface BudgetRebuildQuery {
  namespace: string;
  now: number;
  timeZone: string;
  plan: boolean;
  members: boolean;
}

/** Spend per owner (and the namespace's, `total` = 1) since each calendar window began. */
export function buildCalendarSumsSql(query: BudgetRebuildQuery): SqlQuery {
  const starts = computeCalendarStarts(query.now, query.timeZone);
  const earliest = Math.min(starts.weekStart, starts.monthStart);
  return {
    text: `SELECT owner, GROUPING(owner) AS total,
        coalesce(sum(cost_nano) FILTER (WHERE charged_at >= ${fromMs('$3')}), 0)::text AS day,
        coalesce(sum(cost_nano) FILTER (WHERE charged_at >= ${fromMs('$4')}), 0)::text AS week,
        coalesce(sum(cost_nano) FILTER (WHERE charged_at >= ${fromMs('$5')}), 0)::text AS month
      FROM usage_records
      WHERE namespace = $1 AND charged_at >= ${fromMs('$2')} AND cost_nano <> 0
      GROUP BY ROLLUP (owner) ORDER BY 1`,
    values: [query.namespace, earliest, starts.dayStart, starts.weekStart, starts.monthStart],
  };
}

export async function rebuildBudgetCounters(
  db: LedgerQueryable,
  query: BudgetRebuildQuery,
): Promise<RestoredBudgets> {
  const ends = computeCalendarEnds(query.now, query.timeZone);
  const sums = buildCalendarSumsSql(query);
  const rows = await db.query(sums.text, sums.values);
  const total = rows.find((row) => readNumber(row.total) === 1);
  const calendar = (row: Record<string, unknown> | undefined) =>
    (
      [
        ['Daily', 'day', ends.dayEnd],
        ['Weekly', 'week', ends.weekEnd],
        ['Monthly', 'month', ends.monthEnd],
      ] as const
    ).flatMap(([name, column, end]) => {
      const usedNano = readNumber(row?.[column] ?? 0);
      return usedNano > 0 ? [{ name: name, usedNano, end }] : [];
    });
  const plan: RestoredBudgets['plan'] = [];
  if (query.plan) {
    const charges = await db.query(
      `SELECT ${toMs('charged_at')} AS charged_at, cost_nano::text AS cost_nano FROM usage_records
        WHERE namespace = $1 AND charged_at >= ${fromMs('$2')} AND cost_nano <> 0
        ORDER BY charged_at`,
      // From the first charge: the rolling windows chain from a time none was open.
      [query.namespace, 0],
    );
    const replayed = replayWindows(
      charges.map((row) => ({
        time: readNumber(row.charged_at),
        costNano: readNumber(row.cost_nano),
      })),
      query.now,
    ).find((window) => window.name === 'FiveHour');
    if (replayed?.last != null) plan.push({ name: 'FiveHour', ...replayed.last });
    plan.push(...calendar(total));
  }
  const members = query.members
    ? rows
        .filter((row) => readNumber(row.total) === 0 && row.owner !== null)
        .map((row) => ({ owner: String(row.owner), windows: calendar(row) }))
    : [];
  return { plan, members };
}
