/**
 * Contract: a lease that ends unsettled (the gateway died) is charged its reservation once, as an
 * `estimated` usage record, whether admission, a counter read or the sweep notices it first; a
 * late settlement of the same request id changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './describe-store-contract.js';
import { admission, admitChargedLease, settlement, tenant } from './store-fixtures.js';

export function describeLeaseChargeContract(holder: StoreHolder): void {
  describe('leases that end unsettled', () => {
    it('are charged their estimate once, as an estimated record', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const { requestId, charge, admitted } = await admitChargedLease(store, { ...who, now }, 700);
      expect(admitted.admitted).toBe(true);
      let counters = await store.keyCounters(who.namespace, who.keyUid, now + 999);
      expect([counters.usedNano, counters.reservedNano]).toEqual([0, 700]);

      // The next admission in the namespace charges the dead request before its own checks.
      const next = admission({ ...who, now: now + 1_000 }, { estimateNano: 5 });
      expect((await store.admit(next)).admitted).toBe(true);
      counters = await store.keyCounters(who.namespace, who.keyUid, now + 1_000);
      expect([counters.usedNano, counters.reservedNano]).toEqual([700, 5]);
      expect(counters.windows[0]).toEqual({
        name: 'FiveHour',
        usedNano: 700,
        resetTime: now + 1_000 + 5 * 3_600_000,
      });
      const records = await store.pendingUsageRecords(who.namespace, 10);
      expect(records).toEqual([
        {
          ...charge.record,
          accountUid: who.accountUid,
          costNano: 700,
          durationMs: 1_000,
          chargedAt: now + 1_000,
        },
      ]);
      expect(records[0]?.usage.output).toBe(1024);

      // A gateway that was only slow settles late: the charge stands, nothing is added.
      const late = settlement({ ...who, now: now + 2_000 }, { requestId, costNano: 300 });
      expect(await store.settle(late)).toEqual({ applied: false });
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 700,
        reservedNano: 5,
      });
      counters = await store.keyCounters(who.namespace, who.keyUid, now + 5_000);
      expect(counters.usedNano).toBe(700);
      expect(await store.pendingUsageRecords(who.namespace, 10)).toHaveLength(1);
    });

    it('are charged by the sweep in a namespace without further traffic', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const { requestId } = await admitChargedLease(store, { ...who, now }, 900);
      const early = await store.sweepExpiredLeases({ now: now + 999, claimMs: 1 });
      expect(early.swept).toBe(true);
      expect(await store.pendingUsageRecords(who.namespace, 10)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const swept = await store.sweepExpiredLeases({ now: now + 1_000, claimMs: 1 });
      expect(swept.swept).toBe(true);
      expect(swept.charged).toBeGreaterThanOrEqual(1);
      const records = await store.pendingUsageRecords(who.namespace, 10);
      expect(records.map((record) => [record.requestId, record.costNano, record.accuracy])).toEqual(
        [[requestId, 900, 'estimated']],
      );
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 900,
        reservedNano: 0,
      });
    });

    it('are not charged once settled', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const { requestId } = await admitChargedLease(store, { ...who, now }, 900);
      const settled = settlement({ ...who, now: now + 100 }, { requestId, costNano: 300 });
      expect(await store.settle(settled)).toEqual({ applied: true });
      await store.sweepExpiredLeases({ now: now + 5_000, claimMs: 1 });
      const counters = await store.keyCounters(who.namespace, who.keyUid, now + 5_000);
      expect([counters.usedNano, counters.reservedNano]).toEqual([300, 0]);
      const records = await store.pendingUsageRecords(who.namespace, 10);
      expect(records.map((record) => [record.costNano, record.accuracy])).toEqual([[300, 'exact']]);
    });
  });
}
