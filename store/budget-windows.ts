/**
 * Plan windows and member budgets: what the admission checks after the key's own checks and before
 * the balance (key -> member -> subscription -> balance -> concurrency), and what a charge adds.
 *
 * The plan's five-hour window rolls as on keys (it opens at the first charge and lasts five hours).
 * The daily, weekly (from Monday) and monthly windows of a plan and of a member budget are calendar
 * windows in the account's time zone: the gateway computes where the current ones end
 * (`CalendarEnds`, store/compute-calendar-ends.ts) and passes them in, so the store never
 * needs time zone data. A window is open while the end it was opened with lies ahead; a charge
 * into a closed window opens the current one.
 *
 * Reservations: a plan window counts the account's reservation (every request in flight of the
 * namespace), a member window the reservation of the owner's requests in flight, as a key window
 * counts the key's.
 */
import type { PlanWindowName } from '../crds/schema/plan.js';

export type { PlanWindowName };
export type MemberWindowName = 'Daily' | 'Weekly' | 'Monthly';

export const PLAN_WINDOWS: readonly PlanWindowName[] = ['FiveHour', 'Daily', 'Weekly', 'Monthly'];
export const MEMBER_WINDOWS: readonly MemberWindowName[] = ['Daily', 'Weekly', 'Monthly'];
export const FIVE_HOUR_MS = 5 * 3600_000;

/** Epoch ms where the current calendar day, week and month of the account's time zone end. */
export interface CalendarEnds {
  dayEnd: number;
  weekEnd: number;
  monthEnd: number;
}

/** The account's subscription as the admission applies it (epoch ms; money in nano-USD). */
export interface PlanPolicy {
  planName: string;
  startTime: number;
  /** Null = no end. */
  endTime: number | null;
  /** 0 = no cap. */
  limits: Record<PlanWindowName, number>;
}

/** 0 = no cap. */
export type MemberLimitsPolicy = Record<MemberWindowName, number>;

/**
 * What a charge adds to the budget windows: the plan's (when the account has a plan) and the
 * owner's (when the account has member limits and the key an owner).
 */
export interface BudgetCharge {
  plan: boolean;
  owner: string | null;
  calendar: CalendarEnds;
}

export interface WindowState {
  used: number;
  end: number;
}

export interface MemberState {
  reserved: number;
  windows: Partial<Record<MemberWindowName, WindowState>>;
}

/** A namespace's budget counters in the memory store. */
export interface BudgetState {
  plan: Partial<Record<PlanWindowName, WindowState>>;
  members: Map<string, MemberState>;
}

/** Where a window opened now would end. */
export function windowEndFrom(
  name: PlanWindowName,
  options: { now: number; calendar: CalendarEnds },
): number {
  switch (name) {
    case 'FiveHour':
      return options.now + FIVE_HOUR_MS;
    case 'Daily':
      return options.calendar.dayEnd;
    case 'Weekly':
      return options.calendar.weekEnd;
    case 'Monthly':
      return options.calendar.monthEnd;
  }
}

/** The window's spend at `now` (0 when closed). */
export function openUsed(state: WindowState | undefined, now: number): number {
  return state !== undefined && state.end > now ? state.used : 0;
}

/**
 * The first window whose spend plus `reserved` reaches its limit, with the seconds until it
 * resets (a window not open yet resets when the one opened now would end).
 */
export function findExhaustedWindow<N extends PlanWindowName>(options: {
  names: readonly N[];
  limits: Record<N, number>;
  windows: Partial<Record<N, WindowState>>;
  reserved: number;
  now: number;
  calendar: CalendarEnds;
}): { window: N; retryAfterSeconds: number } | null {
  const { now } = options;
  for (const name of options.names) {
    const limit = options.limits[name];
    if (limit <= 0) continue;
    const state = options.windows[name];
    if (openUsed(state, now) + options.reserved < limit) continue;
    const end =
      state !== undefined && state.end > now
        ? state.end
        : windowEndFrom(name, { now, calendar: options.calendar });
    return { window: name, retryAfterSeconds: Math.max(1, Math.ceil((end - now) / 1000)) };
  }
  return null;
}

/** Adds a cost to each window (opening the current one when closed), as chargeCost does on keys. */
export function chargeWindows<N extends PlanWindowName>(options: {
  names: readonly N[];
  windows: Partial<Record<N, WindowState>>;
  costNano: number;
  now: number;
  calendar: CalendarEnds;
}): void {
  const { windows, costNano, now } = options;
  for (const name of options.names) {
    const current = windows[name];
    if (current !== undefined && current.end > now) current.used += costNano;
    else if (costNano > 0) {
      windows[name] = { used: costNano, end: windowEndFrom(name, options) };
    }
  }
}

/** The subscription admits calls (as the plan) between its start and its end. */
export function planActive(plan: PlanPolicy, now: number): boolean {
  return now >= plan.startTime && (plan.endTime === null || now < plan.endTime);
}

/** Calendar ends in UTC, for a caller that passes none (the store's own readers). */
export function utcCalendarEnds(now: number): CalendarEnds {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const weekday = (date.getUTCDay() + 6) % 7;
  return {
    dayEnd: Date.UTC(year, month, day + 1),
    weekEnd: Date.UTC(year, month, day + 7 - weekday),
    monthEnd: Date.UTC(year, month + 1, 1),
  };
}
