/**
 * Reconciles a Plan (cluster-scoped): its status (Ready, and the number of Accounts subscribed to
 * it). Its limits reach the store through the Accounts that name it (reconcile-account.ts), which
 * a Plan's change queues (route-events.ts).
 */
import type { OperatorContext } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { writeConditions } from './reconcile-cluster-resources.js';

/** Accounts (named `default`) whose subscription names the plan. */
export function countSubscribedAccounts(context: OperatorContext, planName: string): number {
  return context.cache
    .list('Account')
    .filter((object) => object.metadata.name === 'default')
    .filter((object) => {
      const account = readResourceOrNull(context, 'Account', {
        name: 'default',
        namespace: object.metadata.namespace ?? '',
      });
      return account?.spec.subscription?.planName === planName;
    }).length;
}

export async function reconcilePlan(context: OperatorContext, name: string): Promise<void> {
  const plan = readResourceOrNull(context, 'Plan', { name });
  if (plan === null) return;
  await writeConditions(context, {
    kind: 'Plan',
    name,
    generation: plan.metadata.generation,
    current: plan.status,
    desired: [
      { type: 'Ready', status: 'True', reason: 'Ready', message: 'applied to its accounts' },
    ],
    extra: { subscribedAccounts: countSubscribedAccounts(context, name) },
  });
}
