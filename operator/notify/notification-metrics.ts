/**
 * Notification metrics on the operator's registry: `tollgate_operator_notification_events_total`
 * {kind} counts events claimed (first seen), `tollgate_operator_notification_deliveries_total`
 * {kind,target,outcome} counts attempts by outcome (delivered, retry, failed). Labels come from
 * bounded sets only (the kind of notifier, webhook or slack), never from object names.
 */
import { Counter, type Registry } from 'prom-client';

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export class NotificationMetrics {
  readonly events: Counter<'kind'>;
  readonly deliveries: Counter<'kind' | 'target' | 'outcome'>;

  constructor(registry: Registry) {
    this.events = new Counter({
      name: 'tollgate_operator_notification_events_total',
      help: 'Notification events claimed for delivery (each once per notifier).',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.deliveries = new Counter({
      name: 'tollgate_operator_notification_deliveries_total',
      help: 'Notification delivery attempts by outcome: delivered, retry (will be tried again), failed (given up).',
      labelNames: ['kind', 'target', 'outcome'],
      registers: [registry],
    });
  }
}
