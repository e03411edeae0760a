/** One queue key -> the reconciler of its kind, timed and counted by kind and result. */
import type { OperatorContext } from './operator-context.js';
import { parseQueueKey } from './operator-context.js';
import { reconcileAccount } from './reconcile-account.js';
import { reconcileApiKey } from './reconcile-api-key.js';
import { reconcileGroup, reconcileUpstream } from './reconcile-cluster-resources.js';
import { sweepKeyPolicies } from './sweep-key-policies.js';
import { reconcilePlan } from './reconcile-plan.js';
import { reconcileNotifier } from './notify/reconcile-notifier.js';

function dispatch(context: OperatorContext, key: string): Promise<void> {
  const { kind, namespace, name } = parseQueueKey(key);
  switch (kind) {
    case 'ApiKey':
      return reconcileApiKey(context, { namespace, name });
    case 'Group':
      return reconcileGroup(context, name);
    case 'Upstream':
      return reconcileUpstream(context, name);
    case 'Account':
      return reconcileAccount(context, { namespace, name });
    case 'Plan':
      return reconcilePlan(context, name);
    case 'Notifier':
      return reconcileNotifier(context, { kind, namespace, name });
    case 'ClusterNotifier':
      return reconcileNotifier(context, { kind, namespace: undefined, name });
    case 'Sweep':
      return sweepKeyPolicies(context);
    default:
      return Promise.reject(new Error(`unknown queue key ${key}`));
  }
}

export async function processQueueKey(context: OperatorContext, key: string): Promise<void> {
  const { kind } = parseQueueKey(key);
  const started = performance.now();
  let result = 'success';
  try {
    await dispatch(context, key);
  } catch (error) {
    result = 'error';
    context.logger.warn({ key, err: error }, 'reconcile failed; will retry');
    throw error;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    context.metrics.reconciles.inc({ kind, result });
    context.metrics.reconcileSeconds.observe({ kind, result }, seconds);
    context.metrics.queueDepth.set(context.queue.depth);
  }
}
