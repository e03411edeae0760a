/** Reconciles an Account: its policy document, `spentUSD` / `balanceUSD`, and its keys. */
import type { Account } from '../crds/schema/resources.js';
import { usageReadDue, type OperatorContext } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { writeConditions } from './reconcile-cluster-resources.js';
import { projectAccountFigures, projectAccountPolicy } from './reconcile/project-account-policy.js';

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
  const policy = projectAccountPolicy(account);
  const existing = await context.store.getAccount(ref.namespace);
  if (existing?.digest !== policy.digest) {
    await context.store.putAccount(ref.namespace, policy, {
      programmedBefore: wasProgrammed(account),
    });
  }
  let figures: Record<string, unknown> = {};
  if (usageReadDue(context, account.metadata.uid)) {
    const counters = await context.store.accountCounters(ref.namespace);
    context.metrics.observeAccount(ref.namespace, counters);
    figures = projectAccountFigures(account, counters);
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
