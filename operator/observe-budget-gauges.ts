/**
 * The plan and member budget gauges of one Account, set in the operator's usage round (the alerts
 * at 80 % and 100 % read them): each capped plan window's spend, and each capped member window of
 * every owner of the namespace's keys (one store read per owner, off the hot path).
 */
import type { AccountPolicy, AccountCounters } from '../store/store.js';
import type { OperatorContext } from './operator-context.js';
import { readResource } from './read-resource.js';

export async function observeBudgetGauges(
  context: OperatorContext,
  input: { namespace: string; policy: AccountPolicy; counters: AccountCounters },
): Promise<void> {
  const { namespace, policy, counters } = input;
  if (policy.plan !== undefined) {
    const { limits } = policy.plan;
    context.metrics.observePlanWindows(
      namespace,
      (Object.keys(limits) as (keyof typeof limits)[])
        .filter((window) => limits[window] > 0)
        .map((window) => ({
          window,
          usedNano: counters.planWindows?.find((found) => found.name === window)?.usedNano ?? 0,
          capNano: limits[window],
        })),
    );
  }
  const memberLimits = policy.memberLimits;
  if (memberLimits === undefined) return;
  const owners = new Set<string>();
  for (const object of context.cache.list('ApiKey', namespace)) {
    const read = readResource('ApiKey', object);
    const owner = read.ok ? read.resource.spec.owner : undefined;
    if (owner !== undefined) owners.add(owner);
  }
  const now = context.now();
  for (const owner of owners) {
    const member = await context.store.memberCounters(namespace, owner, now);
    context.metrics.observeMemberBudget(
      { namespace, owner },
      (Object.keys(memberLimits) as (keyof typeof memberLimits)[])
        .filter((window) => memberLimits[window] > 0)
        .map((window) => ({
          window,
          usedNano: member.windows.find((found) => found.name === window)?.usedNano ?? 0,
          capNano: memberLimits[window],
        })),
    );
  }
}
