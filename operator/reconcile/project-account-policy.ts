/** Account (+ the Plan it subscribes to) -> AccountPolicy, and its status figures from the counters. */
import type { Account, Plan } from '../../crds/schema/resources.js';
import type { AccountPolicy } from '../../store/policy-documents.js';
import type { AccountCounters } from '../../store/store.js';
import type { MemberLimitsPolicy, PlanPolicy } from '../../store/budget-windows.js';
import { withDigest } from './compute-digest.js';
import { formatNanoAsUSD, parseOptionalMoneyToNano } from './parse-money.js';

function capNano(value: string | number | undefined): number {
  return parseOptionalMoneyToNano(value) ?? 0;
}

const NO_CAPS = { FiveHour: 0, Daily: 0, Weekly: 0, Monthly: 0 };

/**
 * The subscription as the admission applies it; null without one. While its Plan is missing (or
 * its times do not parse) it is never active: calls are refused as expired unless the balance pays.
 */
export function projectPlanPolicy(account: Account, plan: Plan | null): PlanPolicy | null {
  const subscription = account.spec.subscription;
  if (subscription === undefined) return null;
  const planName = subscription.planName;
  const startTime = Date.parse(subscription.startTime);
  const end = subscription.endTime === undefined ? null : Date.parse(subscription.endTime);
  if (plan === null || Number.isNaN(startTime) || (end !== null && Number.isNaN(end))) {
    return { planName, startTime: 0, endTime: 0, limits: NO_CAPS };
  }
  const limits = plan.spec.limits ?? {};
  return {
    planName,
    startTime,
    endTime: end,
    limits: {
      FiveHour: capNano(limits.fiveHourUSD),
      Daily: capNano(limits.dailyUSD),
      Weekly: capNano(limits.weeklyUSD),
      Monthly: capNano(limits.monthlyUSD),
    },
  };
}

export function projectMemberLimits(account: Account): MemberLimitsPolicy | null {
  const limits = account.spec.memberLimits;
  if (limits === undefined) return null;
  const projected = {
    Daily: capNano(limits.dailyUSD),
    Weekly: capNano(limits.weeklyUSD),
    Monthly: capNano(limits.monthlyUSD),
  };
  // No cap at all counts nothing: the admission skips the member check entirely.
  return projected.Daily + projected.Weekly + projected.Monthly > 0 ? projected : null;
}

/** The lower of two limits where 0 means none. */
function lowerLimit(first: number, second: number): number {
  if (first === 0) return second;
  if (second === 0) return first;
  return Math.min(first, second);
}

export function projectAccountPolicy(account: Account, plan: Plan | null = null): AccountPolicy {
  const planPolicy = projectPlanPolicy(account, plan);
  const memberLimits = projectMemberLimits(account);
  return withDigest({
    uid: account.metadata.uid,
    namespace: account.metadata.namespace ?? '',
    creditNano: parseOptionalMoneyToNano(account.spec.creditUSD),
    maxConcurrent: lowerLimit(
      account.spec.maxConcurrentRequests ?? 0,
      planPolicy === null || plan === null ? 0 : (plan.spec.maxConcurrentRequests ?? 0),
    ),
    ...(planPolicy === null ? {} : { plan: planPolicy }),
    ...(memberLimits === null ? {} : { memberLimits }),
    ...((planPolicy !== null || memberLimits !== null) && account.spec.timeZone !== undefined
      ? { timeZone: account.spec.timeZone }
      : {}),
  });
}

/** `balanceUSD` is absent when the account has no balance limit. */
export function projectAccountFigures(
  account: Account,
  counters: AccountCounters,
): { spentUSD: string; balanceUSD?: string } {
  const credit = parseOptionalMoneyToNano(account.spec.creditUSD);
  const spentUSD = formatNanoAsUSD(counters.spentNano);
  if (credit === null) return { spentUSD };
  return { spentUSD, balanceUSD: formatNanoAsUSD(credit - counters.spentNano) };
}

export type SubscriptionState = 'Active' | 'Pending' | 'Expired' | 'PlanNotFound';

/** The Account's `status.subscription`: its state and each plan window's used/cap/reset. */
export function projectSubscriptionStatus(
  account: Account,
  input: { plan: Plan | null; counters: AccountCounters | null; now: number },
) {
  const subscription = account.spec.subscription;
  if (subscription === undefined) return undefined;
  const policy = projectPlanPolicy(account, input.plan);
  let state: SubscriptionState = 'Active';
  if (input.plan === null) state = 'PlanNotFound';
  else if (policy !== null && input.now < policy.startTime) state = 'Pending';
  else if (policy?.endTime != null && input.now >= policy.endTime) state = 'Expired';
  const windows = (input.counters?.planWindows ?? [])
    .filter((window) => policy !== null && policy.limits[window.name] > 0)
    .map((window) => ({
      name: window.name,
      usedUSD: formatNanoAsUSD(window.usedNano),
      capUSD: formatNanoAsUSD(policy?.limits[window.name] ?? 0),
      ...(window.resetTime === null ? {} : { resetTime: new Date(window.resetTime).toISOString() }),
    }));
  const capped = (policy === null ? [] : (Object.keys(policy.limits) as (keyof typeof NO_CAPS)[]))
    .filter((name) => (policy?.limits[name] ?? 0) > 0 && !windows.some((w) => w.name === name))
    .map((name) => ({
      name,
      usedUSD: formatNanoAsUSD(0),
      capUSD: formatNanoAsUSD(policy?.limits[name] ?? 0),
    }));
  return { planName: subscription.planName, state, windows: [...windows, ...capped] };
}
