/**
 * The plan and member-budget part of `GET /v1/usage` (register-usage-routes.ts): the account's
 * subscription with each capped plan window, and the caller's member budget (the spend of every
 * key with the caller key's owner in the namespace). Amounts are USD numbers; times RFC 3339.
 * Pure. Present only when the account has a subscription, respectively member limits and the key
 * an owner.
 */
import type { AccountCounters, AccountPolicy, MemberCounters } from '../../store/store.js';
import { planActive } from '../../store/budget-windows.js';

const NANO_PER_USD = 1e9;

export interface BudgetWindowUsage {
  name: string;
  limit: number;
  used: number;
  remaining: number;
  resetTime: string | null;
}

export interface SubscriptionUsage {
  plan: string;
  state: 'Active' | 'Pending' | 'Expired';
  startTime: string;
  endTime: string | null;
  windows: BudgetWindowUsage[];
}

export interface MemberUsage {
  owner: string;
  reserved: number;
  windows: BudgetWindowUsage[];
}

function windowsUsage(
  limits: Record<string, number>,
  windows: readonly { name: string; usedNano: number; resetTime: number | null }[],
): BudgetWindowUsage[] {
  return Object.entries(limits)
    .filter(([, limit]) => limit > 0)
    .map(([name, limit]) => {
      const window = windows.find((candidate) => candidate.name === name);
      const used = window?.usedNano ?? 0;
      return {
        name,
        limit: limit / NANO_PER_USD,
        used: used / NANO_PER_USD,
        remaining: Math.max(0, limit - used) / NANO_PER_USD,
        resetTime: window?.resetTime == null ? null : new Date(window.resetTime).toISOString(),
      };
    });
}

export function renderSubscriptionUsage(
  account: AccountPolicy,
  input: { counters: AccountCounters; now: number },
): SubscriptionUsage | undefined {
  const { plan } = account;
  if (plan === undefined) return undefined;
  let state: SubscriptionUsage['state'] = 'Active';
  if (!planActive(plan, input.now)) state = input.now < plan.startTime ? 'Pending' : 'Expired';
  return {
    plan: plan.planName,
    state,
    startTime: new Date(plan.startTime).toISOString(),
    endTime: plan.endTime === null ? null : new Date(plan.endTime).toISOString(),
    windows: windowsUsage(plan.limits, input.counters.planWindows ?? []),
  };
}

export function renderMemberUsage(
  account: AccountPolicy,
  input: { owner: string; counters: MemberCounters },
): MemberUsage | undefined {
  if (account.memberLimits === undefined) return undefined;
  return {
    owner: input.owner,
    reserved: input.counters.reservedNano / NANO_PER_USD,
    windows: windowsUsage(account.memberLimits, input.counters.windows),
  };
}
