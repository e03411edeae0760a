/**
 * Notification deliveries (docs/notifications.md): each event is claimed once per notifier (its id
 * is the claim), then waits in a due queue shared by every operator replica until a replica takes it
 * for an attempt (a lease: while one replica sends, the others do not take it), and is saved after
 * each attempt: still pending with its next due time, or finished. The newest deliveries of each
 * notifier and its delivered / failed counts are kept for its status.
 */

export type NotificationDeliveryState = 'Pending' | 'Delivered' | 'Failed';

export interface NotificationDelivery {
  /** The event id: the claim, the same for the same fact (operator/notify/compute-event-id.ts). */
  id: string;
  /** The notifier: `Notifier/<namespace>/<name>` or `ClusterNotifier//<name>`. */
  notifier: string;
  type: string;
  subject: string;
  /** The event as JSON, the same on every attempt. */
  payload: string;
  state: NotificationDeliveryState;
  firstSeen: number;
  attempts: number;
  /** When the next attempt is due (Pending only). */
  dueAt: number;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: number;
}

export interface NotificationHistory {
  /** Newest first, at most the limit asked for. */
  deliveries: NotificationDelivery[];
  delivered: number;
  failed: number;
}

/** How many deliveries each notifier's history keeps. */
export const NOTIFICATION_HISTORY_KEPT = 20;

export interface NotificationStore {
  /**
   * Claims the event for its notifier and queues its first attempt, atomically. False when the id
   * was claimed before (within `claimTtlMs`, longer than the retry horizon): nothing is queued.
   */
  enqueueNotification(delivery: NotificationDelivery, claimTtlMs: number): Promise<boolean>;
  /**
   * The pending deliveries due at `now` (at most `limit`), each leased for `leaseMs`: no other call
   * returns them until the lease ends or they are saved again.
   */
  takeDueNotifications(request: {
    now: number;
    leaseMs: number;
    limit: number;
  }): Promise<NotificationDelivery[]>;
  /** Saves a delivery after an attempt: Pending is queued again at `dueAt`; the others finish. */
  saveNotification(delivery: NotificationDelivery, claimTtlMs: number): Promise<void>;
  notificationHistory(notifier: string, limit: number): Promise<NotificationHistory>;
}
