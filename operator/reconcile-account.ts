/** Reconciles an Account: its policy document, `spentUSD` / `balanceUSD`, and its keys. */
import type { Account } from '../crds/schema/resources.js';
import { usageReadDue, type OperatorContext } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { writeConditions } from './reconcile-cluster-resources.js';
import {
  projectAccountFigures,
  projectAccountPolicy,
  projectSubscriptionStatus,
} from './reconcile/project-account-policy.js';
import type { Plan } from '../crds/schema/resources.js';
import { observeBudgetGauges } from './observe-budget-gauges.js';

/** The Plan the Account subscribes to, null without a subscription or while it is missing. */
export function readSubscribedPlan(context: OperatorContext, account: Account): Plan | null {
  const name = account.spec.subscription?.planName;
  return name === undefined ? null : readResourceOrNull(context, 'Plan', { name });
}

/**
 * Programmed before (its status says so): an Account unknown to the store then lost its counters
 * with the store, and waits for the recorder to restore them from the ledger.
 */
export function wasProgrammed(account: Account): boolean {
  return account.status?.conditions?.some((condition) => condition.type === 'Programmed') === true;
}

export async function reconcileAccount(
  context: OperatorContext,
  ref: { namespace: string; name: string },
): Promise<void> {
  const account = readResourceOrNull(context, 'Account', ref);
  if (account === null || ref.name !== 'default') {
    if (ref.name === 'default' && (await context.store.getAccount(ref.namespace)) !== null) {
      await context.store.deleteAccount(ref.namespace);
    }
    return;
  }
  const plan = readSubscribedPlan(context, account);
  const policy = projectAccountPolicy(account, plan);
  const existing = await context.store.getAccount(ref.namespace);
  if (existing?.digest !== policy.digest) {
    await context.store.putAccount(ref.namespace, policy, {
      programmedBefore: wasProgrammed(account),
    });
  }
  let figures: Record<string, unknown> = {};
  let counters = null;
  if (usageReadDue(context, account.metadata.uid)) {
    counters = await context.store.accountCounters(ref.namespace);
    context.metrics.observeAccount(ref.namespace, counters);
    await observeBudgetGauges(context, { namespace: ref.namespace, policy, counters });
    figures = projectAccountFigures(account, counters);
  }
  // The windows as last read when the counters were not read this time.
  const subscription = projectSubscriptionStatus(account, {
    plan,
    counters: counters ?? { spentNano: 0, reservedNano: 0, planWindows: [] },
    now: context.now(),
  });
  if (subscription !== undefined) {
    figures.subscription =
      counters === null && account.status?.subscription !== undefined
        ? { ...subscription, windows: account.status.subscription.windows ?? subscription.windows }
        : subscription;
  }
  await writeConditions(context, {
    kind: 'Account',
    namespace: ref.namespace,
    name: ref.name,
    generation: account.metadata.generation,
    current: account.status,
    desired: [
      { type: 'Ready', status: 'True', reason: 'Ready', message: 'in the policy cache' },
      { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'in the policy cache' },
    ],
    extra: figures,
  });
}
