/**
 * Plan windows and member budgets on the in-process state, with exactly the semantics of the Lua
 * (budget-lua.ts): checked after NoAccount and before the balance, only for an account with a
 * plan or member limits.
 */
import {
  chargeWindows,
  findExhaustedWindow,
  MEMBER_WINDOWS,
  openUsed,
  PLAN_WINDOWS,
  planActive,
  utcCalendarEnds,
  type BudgetCharge,
  type BudgetState,
  type MemberState,
} from './budget-windows.js';
import type { NamespaceState } from './memory-state.js';
import type { AccountPolicy, AdmissionRefusal, AdmissionRequest, MemberCounters } from './store.js';

export function budgetState(ns: NamespaceState): BudgetState {
  ns.budgets ??= { plan: {}, members: new Map() };
  return ns.budgets;
}

function memberState(budgets: BudgetState, owner: string): MemberState {
  let found = budgets.members.get(owner);
  if (found === undefined) {
    found = { reserved: 0, windows: {} };
    budgets.members.set(owner, found);
  }
  return found;
}

/**
 * The member and subscription checks: a refusal, or what the admitted request's entry keeps
 * (null when the account has neither).
 */
export function checkBudgets(
  ns: NamespaceState,
  account: AccountPolicy,
  request: AdmissionRequest,
): { refusal: AdmissionRefusal } | { budget: BudgetCharge | null } {
  const owner = request.owner ?? '';
  const member = account.memberLimits !== undefined && owner !== '';
  if (account.plan === undefined && !member) return { budget: null };
  const { now } = request;
  const calendar = request.calendar ?? utcCalendarEnds(now);
  const budgets = budgetState(ns);
  if (member && account.memberLimits !== undefined) {
    const state = memberState(budgets, owner);
    const found = findExhaustedWindow({
      names: MEMBER_WINDOWS,
      limits: account.memberLimits,
      windows: state.windows,
      reserved: state.reserved,
      now,
      calendar,
    });
    if (found !== null) return { refusal: { reason: 'MemberBudgetExhausted', ...found } };
  }
  if (account.plan !== undefined) {
    if (!planActive(account.plan, now)) {
      const credit = account.creditNano;
      if (credit === null || ns.accountSpent + ns.accountReserved >= credit) {
        return { refusal: { reason: 'SubscriptionExpired' } };
      }
    } else {
      const found = findExhaustedWindow({
        names: PLAN_WINDOWS,
        limits: account.plan.limits,
        windows: budgets.plan,
        reserved: ns.accountReserved,
        now,
        calendar,
      });
      if (found !== null) return { refusal: { reason: 'SubscriptionExhausted', ...found } };
    }
  }
  return { budget: { plan: account.plan !== undefined, owner: member ? owner : null, calendar } };
}

/** The admission's reservation in the owner's counters. */
export function reserveBudget(ns: NamespaceState, budget: BudgetCharge, estimateNano: number) {
  if (budget.owner !== null) memberState(budgetState(ns), budget.owner).reserved += estimateNano;
}

/** Gives the owner's reservation back (a release without a charge of the same owner). */
export function releaseBudget(ns: NamespaceState, budget: BudgetCharge, estimateNano: number) {
  if (budget.owner !== null) memberState(budgetState(ns), budget.owner).reserved -= estimateNano;
}

/** Charges the cost to the plan's windows and the owner's. */
export function chargeBudgets(
  ns: NamespaceState,
  budget: BudgetCharge,
  charge: { costNano: number; now: number },
): void {
  const budgets = budgetState(ns);
  const { costNano, now } = charge;
  const { calendar } = budget;
  if (budget.plan) {
    chargeWindows({ names: PLAN_WINDOWS, windows: budgets.plan, costNano, now, calendar });
  }
  if (budget.owner !== null) {
    const state = memberState(budgets, budget.owner);
    chargeWindows({ names: MEMBER_WINDOWS, windows: state.windows, costNano, now, calendar });
  }
}

export function readPlanWindows(ns: NamespaceState | undefined, now: number) {
  return PLAN_WINDOWS.map((name) => {
    const state = ns?.budgets?.plan[name];
    const open = state !== undefined && state.end > now;
    return { name, usedNano: openUsed(state, now), resetTime: open ? state.end : null };
  });
}

export function readMemberCounters(
  ns: NamespaceState | undefined,
  request: { owner: string; now: number },
): MemberCounters {
  const state = ns?.budgets?.members.get(request.owner);
  return {
    reservedNano: state?.reserved ?? 0,
    windows: MEMBER_WINDOWS.map((name) => {
      const window = state?.windows[name];
      const open = window !== undefined && window.end > request.now;
      return { name, usedNano: openUsed(window, request.now), resetTime: open ? window.end : null };
    }),
  };
}
