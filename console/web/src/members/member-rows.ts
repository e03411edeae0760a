/**
 * Pure: the Members table's rows: each owner's spend today, over 7 and over 30 days against the
 * member limits per day, week and month, with the 80 % / 100 % level of each. The ledger's 7 and
 * 30 days are rolling while the gateway's week and month are calendar windows: the level is what
 * the figures say, the gateway decides the refusal.
 */
import type { MemberSpend } from '../api/member-api.js';
import { amountOf, budgetLevel, type BudgetLevel } from '../plans/budget-level.js';

export interface BudgetCell {
  spentUSD: number;
  limitUSD: string | null;
  level: BudgetLevel;
}

export interface MemberRow {
  owner: string;
  you: boolean;
  today: BudgetCell;
  sevenDays: BudgetCell;
  thirtyDays: BudgetCell;
  requests30Days: number;
}

function cell(spentUSD: number, limitUSD: string | null): BudgetCell {
  return { spentUSD, limitUSD, level: budgetLevel(spentUSD, amountOf(limitUSD)) };
}

/** Rows by 30-day spend, highest first (ties: by name). */
export function memberRowsOf(spend: MemberSpend): MemberRow[] {
  const limits = spend.memberLimits;
  return spend.members
    .map((member) => ({
      owner: member.owner,
      you: member.owner === spend.viewer,
      today: cell(member.todayUSD, limits.dailyUSD),
      sevenDays: cell(member.sevenDaysUSD, limits.weeklyUSD),
      thirtyDays: cell(member.thirtyDaysUSD, limits.monthlyUSD),
      requests30Days: member.requests30Days,
    }))
    .sort(
      (a, b) => b.thirtyDays.spentUSD - a.thirtyDays.spentUSD || a.owner.localeCompare(b.owner),
    );
}

/** Pure: a spend in USD as the text UsdAmount reads (at most 6 decimals, no exponent). */
export function usdText(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}
