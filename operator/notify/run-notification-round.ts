/**
 * One notification round (the operator runs one every interval, off the request path): evaluate
 * every Notifier and ClusterNotifier on a snapshot of the counters, claim each event in the store
 * (the claim makes a second evaluation, on this replica or another, a no-op), then make the
 * attempts that are due, each leased in the store so no two replicas send the same event at once,
 * and queue the status of every notifier whose history changed.
 */
import type { ClusterNotifierSpec } from '../../crds/schema/resources.js';
import type { NotificationDelivery } from '../../store/notification-deliveries.js';
import type { OperatorContext } from '../operator-context.js';
import { queueKey } from '../operator-context.js';
import { readResource } from '../read-resource.js';
import { buildNotificationRequest } from './build-notification-request.js';
import { evaluateNotifier } from './evaluate-notifier.js';
import type { TargetGuard } from './guard-target-url.js';
import { describeSubject, type NotificationEvent } from './notification-event.js';
import type { NotificationMetrics } from './notification-metrics.js';
import { planNextAttempt, type RetryPolicy } from './plan-next-attempt.js';
import { readNotificationSnapshot, snapshotNeeds } from './read-notification-snapshot.js';
import { resolveNotifierTarget, type ResolvedTarget } from './resolve-notifier-target.js';
import type { NotificationSender } from './send-notification.js';

export interface NotificationRoundOptions {
  sender: NotificationSender;
  metrics: NotificationMetrics;
  guard: TargetGuard;
  retry: RetryPolicy;
  /** How long an event id stays claimed: longer than the whole retry horizon. */
  claimTtlMs: number;
  /** How long one attempt holds its delivery (longer than the send timeout). */
  leaseMs: number;
}

interface LoadedNotifier {
  /** The queue key: `Notifier/<namespace>/<name>` or `ClusterNotifier//<name>`. */
  key: string;
  kind: 'Notifier' | 'ClusterNotifier';
  uid: string;
  namespace: string | null;
  spec: ClusterNotifierSpec;
}

function loadNotifiers(context: OperatorContext): LoadedNotifier[] {
  const loaded: LoadedNotifier[] = [];
  for (const kind of ['Notifier', 'ClusterNotifier'] as const) {
    for (const object of context.cache.list(kind)) {
      const read = readResource(kind, object);
      if (!read.ok) continue;
      const namespace = kind === 'Notifier' ? (object.metadata.namespace ?? '') : null;
      loaded.push({
        key: queueKey(kind, namespace ?? undefined, object.metadata.name),
        kind,
        uid: object.metadata.uid,
        namespace,
        spec: read.resource.spec,
      });
    }
  }
  return loaded;
}

export function resolveTargetOf(
  context: OperatorContext,
  input: { namespace: string | null; uid: string; spec: ClusterNotifierSpec; guard: TargetGuard },
): ResolvedTarget {
  return resolveNotifierTarget({
    spec: input.spec,
    secretNamespace: input.namespace ?? context.namespace,
    reader: input.namespace === null ? undefined : { kind: 'Notifier', uid: input.uid },
    readSecret: (namespace, name) => context.cache.get('Secret', name, namespace),
    guard: input.guard,
  });
}

export class NotificationRound {
  readonly #context: OperatorContext;
  readonly #options: NotificationRoundOptions;

  constructor(context: OperatorContext, options: NotificationRoundOptions) {
    this.#context = context;
    this.#options = options;
  }

  async run(): Promise<void> {
    const notifiers = loadNotifiers(this.#context);
    if (notifiers.length > 0) await this.evaluate(notifiers);
    await this.deliverDue(notifiers);
  }

  /** Claims every event found; returns how many were new. */
  async evaluate(notifiers: readonly LoadedNotifier[]): Promise<number> {
    const context = this.#context;
    const snapshot = await readNotificationSnapshot(context, snapshotNeeds(notifiers));
    let claimed = 0;
    for (const notifier of notifiers) {
      for (const event of evaluateNotifier(notifier, snapshot)) {
        const delivery: NotificationDelivery = {
          id: event.id,
          notifier: notifier.key,
          type: event.type,
          subject: describeSubject(event.subject),
          payload: JSON.stringify(event),
          state: 'Pending',
          firstSeen: snapshot.now,
          attempts: 0,
          dueAt: snapshot.now,
        };
        if (await context.store.enqueueNotification(delivery, this.#options.claimTtlMs)) {
          claimed += 1;
          this.#options.metrics.events.inc({ kind: notifier.kind });
        }
      }
    }
    return claimed;
  }

  async deliverDue(notifiers: readonly LoadedNotifier[]): Promise<void> {
    const context = this.#context;
    const byKey = new Map(notifiers.map((notifier) => [notifier.key, notifier]));
    const due = await context.store.takeDueNotifications({
      now: context.now(),
      leaseMs: this.#options.leaseMs,
      limit: 100,
    });
    const changed = new Set<string>();
    await Promise.all(
      due.map(async (delivery) => {
        await this.attempt(delivery, byKey.get(delivery.notifier));
        changed.add(delivery.notifier);
      }),
    );
    for (const key of changed) context.queue.add(key);
  }

  private async attempt(
    delivery: NotificationDelivery,
    notifier: LoadedNotifier | undefined,
  ): Promise<void> {
    const { metrics, retry, claimTtlMs } = this.#options;
    const context = this.#context;
    const kind = delivery.notifier.startsWith('ClusterNotifier/') ? 'ClusterNotifier' : 'Notifier';
    const finish = async (
      saved: NotificationDelivery,
      outcome: 'delivered' | 'retry' | 'failed',
    ) => {
      await context.store.saveNotification(saved, claimTtlMs);
      const target = notifier?.spec.slack === undefined ? 'webhook' : 'slack';
      metrics.deliveries.inc({ kind, target, outcome });
    };
    if (notifier === undefined) {
      await finish(
        { ...delivery, state: 'Failed', lastError: 'the notifier was deleted' },
        'failed',
      );
      return;
    }
    const resolved = resolveTargetOf(context, { ...notifier, guard: this.#options.guard });
    const attempts = delivery.attempts + 1;
    const now = context.now();
    if (!resolved.ok) {
      // Like a failed send: retried with backoff (the Secret may be created or fixed meanwhile).
      const next = planNextAttempt({ result: { statusCode: null }, attempts, now, policy: retry });
      const common = { ...delivery, attempts, lastError: resolved.message };
      if (next.kind === 'retry') await finish({ ...common, dueAt: next.atMs }, 'retry');
      else await finish({ ...common, state: 'Failed' }, 'failed');
      return;
    }
    const event = JSON.parse(delivery.payload) as NotificationEvent;
    const request = buildNotificationRequest({ target: resolved.target, event, now });
    const result = await this.#options.sender.send(request);
    const next = planNextAttempt({ result, attempts, now: context.now(), policy: retry });
    const recorded: NotificationDelivery = { ...delivery, attempts };
    if (result.statusCode !== null) recorded.lastStatusCode = result.statusCode;
    else delete recorded.lastStatusCode;
    if (result.error !== undefined) recorded.lastError = result.error;
    switch (next.kind) {
      case 'delivered':
        delete recorded.lastError;
        await finish({ ...recorded, state: 'Delivered', deliveredAt: context.now() }, 'delivered');
        return;
      case 'retry':
        await finish({ ...recorded, dueAt: next.atMs }, 'retry');
        return;
      case 'failed':
        await finish({ ...recorded, state: 'Failed', lastError: next.reason }, 'failed');
        return;
    }
  }
}
