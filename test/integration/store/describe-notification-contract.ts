/**
 * The notification delivery contract (store/notification-deliveries.ts), run on every store: an
 * event id is claimed once, a due delivery is taken by one caller at a time until its lease ends,
 * a saved delivery is queued again or finishes (counted once), and each notifier's history keeps
 * its newest deliveries.
 */
import { describe, expect, it } from 'vitest';
import type { NotificationDelivery } from '../../../store/notification-deliveries.js';
import { NOTIFICATION_HISTORY_KEPT } from '../../../store/notification-deliveries.js';
import type { StoreHolder } from './store-under-test.js';
import { uniqueName } from './store-fixtures.js';

function delivery(notifier: string, overrides: Partial<NotificationDelivery> = {}) {
  const id = uniqueName('evt');
  return {
    id,
    notifier,
    type: 'KeyWindowThreshold',
    subject: 'team-a/ApiKey/k/Daily',
    payload: JSON.stringify({ id }),
    state: 'Pending',
    firstSeen: 1_000,
    attempts: 0,
    dueAt: 1_000,
    ...overrides,
  } satisfies NotificationDelivery;
}

const DAY = 86_400_000;

export function describeNotificationContract(holder: StoreHolder): void {
  describe('notification deliveries', () => {
    it('claims an event id once', async () => {
      const notifier = `Notifier/${uniqueName('ns')}/n`;
      const first = delivery(notifier);
      expect(await holder.store.enqueueNotification(first, DAY)).toBe(true);
      expect(await holder.store.enqueueNotification({ ...first, dueAt: 5 }, DAY)).toBe(false);
      const history = await holder.store.notificationHistory(notifier, 20);
      expect(history.deliveries.map((found) => found.id)).toEqual([first.id]);
      expect(history.deliveries[0]?.dueAt).toBe(1_000);
    });

    it('leases a due delivery to one caller until the lease ends', async () => {
      const notifier = `Notifier/${uniqueName('ns')}/n`;
      // Far in the future, so no other test's due deliveries are taken with it.
      const now = 9_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
      const queued = delivery(notifier, { dueAt: now - 1 });
      await holder.store.enqueueNotification(queued, DAY);
      const taken = await holder.store.takeDueNotifications({ now, leaseMs: 30_000, limit: 100 });
      expect(taken.filter((found) => found.id === queued.id)).toHaveLength(1);
      const again = await holder.store.takeDueNotifications({ now, leaseMs: 30_000, limit: 100 });
      expect(again.some((found) => found.id === queued.id)).toBe(false);
      const later = await holder.store.takeDueNotifications({
        now: now + 30_000,
        leaseMs: 30_000,
        limit: 100,
      });
      expect(later.some((found) => found.id === queued.id)).toBe(true);
    });

    it('does not hand out a delivery before it is due', async () => {
      const notifier = `Notifier/${uniqueName('ns')}/n`;
      const queued = delivery(notifier, { dueAt: 8_000_000_000_000 });
      await holder.store.enqueueNotification(queued, DAY);
      const taken = await holder.store.takeDueNotifications({
        now: 7_999_999_999_999,
        leaseMs: 1,
        limit: 1000,
      });
      expect(taken.some((found) => found.id === queued.id)).toBe(false);
    });

    it('queues a saved pending delivery again and counts a finished one once', async () => {
      const notifier = `Notifier/${uniqueName('ns')}/n`;
      const now = 9_500_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
      const queued = delivery(notifier, { dueAt: now });
      await holder.store.enqueueNotification(queued, DAY);
      await holder.store.takeDueNotifications({ now, leaseMs: 60_000, limit: 100 });
      const retry = { ...queued, attempts: 1, lastStatusCode: 500, dueAt: now + 10 };
      await holder.store.saveNotification(retry, DAY);
      const taken = await holder.store.takeDueNotifications({
        now: now + 10,
        leaseMs: 60_000,
        limit: 100,
      });
      expect(taken.find((found) => found.id === queued.id)).toMatchObject({
        attempts: 1,
        lastStatusCode: 500,
      });
      const done = { ...retry, attempts: 2, state: 'Delivered' as const, deliveredAt: now + 20 };
      await holder.store.saveNotification(done, DAY);
      // Saved twice (a replica whose lease ran out finishing late): counted once.
      await holder.store.saveNotification(done, DAY);
      const after = await holder.store.takeDueNotifications({
        now: now + 600_000,
        leaseMs: 1,
        limit: 1000,
      });
      expect(after.some((found) => found.id === queued.id)).toBe(false);
      const history = await holder.store.notificationHistory(notifier, 20);
      expect(history).toMatchObject({ delivered: 1, failed: 0 });
      expect(history.deliveries[0]).toMatchObject({ state: 'Delivered', attempts: 2 });
    });

    it('keeps the newest deliveries of each notifier', async () => {
      const notifier = `Notifier/${uniqueName('ns')}/n`;
      const ids: string[] = [];
      for (let index = 0; index < NOTIFICATION_HISTORY_KEPT + 3; index++) {
        const queued = delivery(notifier, { dueAt: 8_500_000_000_000 });
        ids.push(queued.id);
        await holder.store.enqueueNotification(queued, DAY);
      }
      const history = await holder.store.notificationHistory(notifier, NOTIFICATION_HISTORY_KEPT);
      expect(history.deliveries.map((found) => found.id)).toEqual(
        ids.reverse().slice(0, NOTIFICATION_HISTORY_KEPT),
      );
      const other = await holder.store.notificationHistory(`${notifier}-other`, 20);
      expect(other).toEqual({ deliveries: [], delivered: 0, failed: 0 });
    });
  });
}
