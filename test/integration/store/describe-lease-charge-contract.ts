/**
 * Contract: a lease that ends unsettled (the gateway died) is charged once, as an `estimated` usage
 * record, whether admission, a counter read or the sweep notices it first: its reservation, or the
 * progress its last renewal brought (the delivered record and a charge bounded by the reservation
 * and the delivered cost); a late settlement of the same request id changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { LeaseProgress } from '../../../store/store.js';
import type { StoreHolder } from './store-under-test.js';
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

    // [delivered, charge] a renewal brought, the reservation 900, and what the lease is charged.
    const bounds: [string, number, number, number][] = [
      ['its charge', 200, 350, 350],
      ['at most the reservation', 200, 5_000, 900],
      ['at least what was delivered', 200, 100, 200],
      ['what was delivered, past the reservation', 1_200, 1_300, 1_200],
    ];
    for (const [name, deliveredNano, chargeNano, charged] of bounds) {
      it(`are charged the progress a renewal brought: ${name}`, async () => {
        const { store } = holder;
        const who = await tenant(store);
        const now = Date.now();
        const { requestId, charge } = await admitChargedLease(store, { ...who, now }, 900);
        const ref = { namespace: who.namespace, keyUid: who.keyUid, requestId };
        const progress = (output: number, upstream: string): LeaseProgress => ({
          record: {
            ...charge.record,
            upstream,
            usage: { ...charge.record.usage, inputUncached: 37, output },
            timeToFirstByteMs: 80,
          },
          deliveredNano,
          chargeNano,
        });
        // The later renewal's progress replaces the earlier one; neither moves the lease back.
        await store.renewLease([{ ...ref, progress: progress(3, 'up-first') }], now + 500);
        await store.renewLease([{ ...ref, progress: progress(12, 'up-second') }], now + 600);
        await store.sweepExpiredLeases({ now: now + 999, claimMs: 1 });
        expect(await store.pendingUsageRecords(who.namespace, 10)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect((await store.sweepExpiredLeases({ now: now + 1_000, claimMs: 1 })).swept).toBe(true);
        const records = await store.pendingUsageRecords(who.namespace, 10);
        expect(records).toEqual([
          {
            ...progress(12, 'up-second').record,
            costNano: charged,
            accountUid: who.accountUid,
            durationMs: 1_000,
            chargedAt: now + 1_000,
          },
        ]);
        expect(await store.accountCounters(who.namespace)).toEqual({
          spentNano: charged,
          reservedNano: 0,
        });
        const counters = await store.keyCounters(who.namespace, who.keyUid, now + 1_000);
        expect([counters.usedNano, counters.reservedNano]).toEqual([charged, 0]);
      });
    }

    it('keep no progress once settled', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const { requestId, charge } = await admitChargedLease(store, { ...who, now }, 900);
      const settled = settlement({ ...who, now: now + 100 }, { requestId, costNano: 300 });
      expect(await store.settle(settled)).toEqual({ applied: true });
      const progress = { record: charge.record, deliveredNano: 400, chargeNano: 500 };
      await store.renewLease(
        [{ namespace: who.namespace, keyUid: who.keyUid, requestId, progress }],
        now + 5_000,
      );
      await store.sweepExpiredLeases({ now: now + 10_000, claimMs: 1 });
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 300,
        reservedNano: 0,
      });
      const records = await store.pendingUsageRecords(who.namespace, 10);
      expect(records.map((record) => [record.costNano, record.accuracy])).toEqual([[300, 'exact']]);
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
