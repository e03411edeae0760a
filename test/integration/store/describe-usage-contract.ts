/**
 * Contract: every charge appends its record to the account's usage stream in the same atomic step
 * (with `chargedAt` = the settlement's time), once per request id; quota resets go to the same
 * stream; no record is kept anywhere else in the store.
 */
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './store-under-test.js';
import { admitChargedLease, settlement, tenant } from './store-fixtures.js';

export function describeUsageContract(holder: StoreHolder): void {
  describe('usage stream', () => {
    it('receives each settled record once, in settlement order, with its charge time', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const start = Date.now();
      const settled = [];
      for (let index = 0; index < 5; index++) {
        const request = settlement({ ...who, now: start + index }, { costNano: 10 + index });
        settled.push(request);
        expect(await store.settle(request)).toEqual({ applied: true });
      }
      // Settled again: nothing appended.
      expect(await store.settle(settled[2]!)).toEqual({ applied: false });
      const pending = await store.pendingUsageRecords(who.namespace, 100);
      expect(pending).toEqual(
        settled.map((request) => ({ ...request.record, chargedAt: request.now })),
      );
      expect(await store.pendingUsageRecords(who.namespace, 2)).toHaveLength(2);
      const other = await tenant(store);
      expect(await store.pendingUsageRecords(other.namespace, 100)).toEqual([]);
    });

    it('carries the estimated record of an expired lease, charged at the sweep', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const { charge } = await admitChargedLease(store, { ...who, now }, 400);
      await store.sweepExpiredLeases({ now: now + 1_500, claimMs: 1 });
      const pending = await store.pendingUsageRecords(who.namespace, 10);
      expect(pending).toEqual([
        {
          ...charge.record,
          accountUid: who.accountUid,
          costNano: 400,
          durationMs: 1_000,
          chargedAt: now + 1_500,
        },
      ]);
    });

    it('gets quota resets too, which are not usage records', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      await store.settle(settlement({ ...who, now }, { costNano: 10 }));
      expect(await store.resetQuota(who.namespace, who.keyUid, 'reset-1')).toBe(true);
      expect(await store.resetQuota(who.namespace, who.keyUid, 'reset-1')).toBe(false);
      const position = await store.usageStreamPosition(who.namespace);
      expect(position.waiting).toBe(2);
      expect(await store.pendingUsageRecords(who.namespace, 10)).toHaveLength(1);
    });
  });
}
