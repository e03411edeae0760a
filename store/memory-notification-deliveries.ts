/**
 * Notification deliveries in the memory store: the same contract as on Redis
 * (redis-notification-deliveries.ts), each call one synchronous step. Held for the life of the
 * process (local mode runs one operator; a restart starts with an empty queue).
 */
import type { MemoryState, NotificationMaps } from './memory-state.js';
import {
  NOTIFICATION_HISTORY_KEPT,
  type NotificationDelivery,
  type NotificationStore,
} from './notification-deliveries.js';

type Run = <T>(operation: () => T) => Promise<T>;

function mapsOf(state: MemoryState): NotificationMaps {
  state.notifications ??= {
    documents: new Map(),
    due: new Map(),
    histories: new Map(),
    counts: new Map(),
  };
  return state.notifications;
}

export function createMemoryNotificationDeliveries(
  state: MemoryState,
  run: { change: Run; read: Run },
): NotificationStore {
  const { change, read } = run;
  // Read each time: a reloaded state brings its own maps.
  const maps = () => mapsOf(state);
  const live = (id: string, now: number) => {
    const { documents } = maps();
    const entry = documents.get(id);
    if (entry === undefined || entry.expiresAt > now) return entry;
    documents.delete(id);
    return undefined;
  };
  return {
    enqueueNotification: (delivery, claimTtlMs) =>
      change(() => {
        const { documents, due, histories } = maps();
        const now = Date.now();
        if (live(delivery.id, now) !== undefined) return false;
        documents.set(delivery.id, {
          delivery: structuredClone(delivery),
          expiresAt: now + claimTtlMs,
        });
        due.set(delivery.id, delivery.dueAt);
        const ids = [delivery.id, ...(histories.get(delivery.notifier) ?? [])];
        histories.set(delivery.notifier, ids.slice(0, NOTIFICATION_HISTORY_KEPT));
        return true;
      }),
    takeDueNotifications: ({ now, leaseMs, limit }) =>
      change(() => {
        const { due } = maps();
        const taken: NotificationDelivery[] = [];
        const ready = [...due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
        for (const [id] of ready.slice(0, limit)) {
          const entry = live(id, Date.now());
          if (entry === undefined) {
            due.delete(id);
            continue;
          }
          due.set(id, now + leaseMs);
          taken.push(structuredClone(entry.delivery));
        }
        return taken;
      }),
    saveNotification: (delivery, claimTtlMs) =>
      change(() => {
        const { documents, due, counts } = maps();
        documents.set(delivery.id, {
          delivery: structuredClone(delivery),
          expiresAt: Date.now() + claimTtlMs,
        });
        if (delivery.state === 'Pending') {
          due.set(delivery.id, delivery.dueAt);
        } else if (due.delete(delivery.id)) {
          const field = `${delivery.notifier}|${delivery.state}`;
          counts.set(field, (counts.get(field) ?? 0) + 1);
        }
      }),
    notificationHistory: (notifier, limit) =>
      read(() => ({
        deliveries: (maps().histories.get(notifier) ?? [])
          .slice(0, limit)
          .map((id) => live(id, Date.now())?.delivery)
          .filter((found) => found !== undefined)
          .map((found) => structuredClone(found)),
        delivered: maps().counts.get(`${notifier}|Delivered`) ?? 0,
        failed: maps().counts.get(`${notifier}|Failed`) ?? 0,
      })),
  };
}
