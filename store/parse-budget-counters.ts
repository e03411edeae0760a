/** Reads the plan and member counters (budget-lua.ts) into the contract's types. */
import { MEMBER_WINDOWS, PLAN_WINDOWS } from './budget-windows.js';
import type { AccountCounters, MemberCounters } from './store.js';

function windowAt(values: readonly (string | null)[], index: number, now: number) {
  const end = Number(values[index * 2 + 1] ?? '') || 0;
  const open = end > now;
  return {
    usedNano: open ? Number(values[index * 2] ?? '') || 0 : 0,
    resetTime: open ? end : null,
  };
}

/** values: used and end of each plan window, in window order. */
export function parsePlanWindows(
  values: readonly (string | null)[],
  now: number,
): NonNullable<AccountCounters['planWindows']> {
  return PLAN_WINDOWS.map((name, index) => ({ name, ...windowAt(values, index, now) }));
}

/** values: the HMGET of MEMBER_COUNTER_FIELDS. */
export function parseMemberCounters(
  values: readonly (string | null)[],
  now: number,
): MemberCounters {
  const windows = values.slice(1);
  return {
    reservedNano: Number(values[0] ?? '') || 0,
    windows: MEMBER_WINDOWS.map((name, index) => ({ name, ...windowAt(windows, index, now) })),
  };
}
