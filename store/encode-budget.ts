/** The budget arguments of the Redis scripts (budget-lua.ts): text the scripts split on TAB. */
import type { BudgetCharge, CalendarEnds } from './budget-windows.js';

/** dayEnd TAB weekEnd TAB monthEnd; '' for none (the script then counts UTC days). */
export function encodeCalendarEnds(calendar: CalendarEnds | undefined): string {
  if (calendar === undefined) return '';
  return `${calendar.dayEnd}\t${calendar.weekEnd}\t${calendar.monthEnd}`;
}

/** planFlag TAB dayEnd TAB weekEnd TAB monthEnd TAB owner; '' for none. */
export function encodeBudgetCharge(budget: BudgetCharge | undefined): string {
  if (budget === undefined || (!budget.plan && budget.owner === null)) return '';
  const plan = budget.plan ? '1' : '0';
  return `${plan}\t${encodeCalendarEnds(budget.calendar)}\t${budget.owner ?? ''}`;
}

/** The account policy hash's `plan` field: startMs TAB endMs ('' = none) TAB the four caps. */
export function encodePlanField(plan: {
  startTime: number;
  endTime: number | null;
  limits: { FiveHour: number; Daily: number; Weekly: number; Monthly: number };
}): string {
  const { limits } = plan;
  const caps = [limits.FiveHour, limits.Daily, limits.Weekly, limits.Monthly];
  return [plan.startTime, plan.endTime ?? '', ...caps].join('\t');
}

/** The account policy hash's `members` field: the daily, weekly and monthly caps. */
export function encodeMembersField(limits: {
  Daily: number;
  Weekly: number;
  Monthly: number;
}): string {
  return `${limits.Daily}\t${limits.Weekly}\t${limits.Monthly}`;
}
