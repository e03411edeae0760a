/**
 * The status of a Notifier or ClusterNotifier: Ready (or why not: its Secret is missing or not
 * marked for notifiers, its URL
 * is refused), the delivered and failed counts, and the newest deliveries from the store. Queued
 * when the notifier changes and after each round that attempted one of its deliveries.
 */
import { DELIVERY_HISTORY_SIZE } from '../../crds/schema/notifier.js';
import type { NotificationDelivery } from '../../store/notification-deliveries.js';
import type { OperatorContext } from '../operator-context.js';
import { queueKey } from '../operator-context.js';
import { readResourceOrNull } from '../read-typed-resource.js';
import { writeConditions } from '../reconcile-cluster-resources.js';
import { formatTime, type DesiredCondition } from '../reconcile/manage-conditions.js';
import { resolveTargetOf } from './run-notification-round.js';

function deliveryStatus(delivery: NotificationDelivery) {
  return {
    id: delivery.id,
    type: delivery.type,
    subject: delivery.subject.slice(0, 512),
    state: delivery.state,
    firstSeenTime: formatTime(delivery.firstSeen),
    attempts: delivery.attempts,
    ...(delivery.lastStatusCode === undefined ? {} : { lastStatusCode: delivery.lastStatusCode }),
    ...(delivery.lastError === undefined ? {} : { lastError: delivery.lastError.slice(0, 1024) }),
    ...(delivery.deliveredAt === undefined
      ? {}
      : { deliveredTime: formatTime(delivery.deliveredAt) }),
  };
}

export async function reconcileNotifier(
  context: OperatorContext,
  ref: { kind: 'Notifier' | 'ClusterNotifier'; namespace: string | undefined; name: string },
): Promise<void> {
  const notifier =
    ref.kind === 'Notifier'
      ? readResourceOrNull(context, 'Notifier', { name: ref.name, namespace: ref.namespace ?? '' })
      : readResourceOrNull(context, 'ClusterNotifier', { name: ref.name });
  if (notifier === null) return;
  const resolved = resolveTargetOf(context, {
    namespace: ref.kind === 'Notifier' ? (ref.namespace ?? '') : null,
    uid: notifier.metadata.uid,
    spec: notifier.spec,
    guard: context.notifierGuard,
  });
  const ready: DesiredCondition = resolved.ok
    ? {
        type: 'Ready',
        status: 'True',
        reason: 'Ready',
        message: `sending to a ${resolved.target.kind === 'slack' ? 'Slack' : 'webhook'} target`,
      }
    : { type: 'Ready', status: 'False', reason: resolved.reason, message: resolved.message };
  const history = await context.store.notificationHistory(
    queueKey(ref.kind, ref.namespace, ref.name),
    DELIVERY_HISTORY_SIZE,
  );
  await writeConditions(context, {
    kind: ref.kind,
    ...(ref.namespace === undefined ? {} : { namespace: ref.namespace }),
    name: ref.name,
    generation: notifier.metadata.generation,
    current: notifier.status,
    desired: [ready],
    extra: {
      delivered: history.delivered,
      failed: history.failed,
      deliveries: history.deliveries.map(deliveryStatus),
    },
  });
}
