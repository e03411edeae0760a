/** Reconciles an Account: its policy document, `spentUSD` / `balanceUSD`, and its keys. */
import { usageReadDue, type OperatorContext } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { writeConditions } from './reconcile-cluster-resources.js';
import { projectAccountFigures, projectAccountPolicy } from './reconcile/project-account-policy.js';

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
    // Programmed before (its status says so) but unknown to the store: the store lost its
    // counters, and the account waits for the recorder to restore them from the ledger.
    const programmedBefore =
      account.status?.conditions?.some((condition) => condition.type === 'Programmed') === true;
    await context.store.putAccount(ref.namespace, policy, { programmedBefore });
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
