/** Contract: windows, reservations, leases, exactly-once settlement, quota reset, slots, bursts. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './store-under-test.js';
import { admission, NO_LIMITS, settlement, tenant, uniqueName } from './store-fixtures.js';

const HOUR = 3_600_000;

export function describeSpendContract(holder: StoreHolder): void {
  describe('spend windows', () => {
    it('open at the first charged request, accumulate, expire and reopen', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const t0 = Date.now();
      await store.settle(settlement({ ...who, now: t0 }, { costNano: 0 }));
      let counters = await store.keyCounters(who.namespace, who.keyUid, t0);
      expect(counters.windows.every((window) => window.resetTime === null)).toBe(true);
      await store.settle(settlement({ ...who, now: t0 }, { costNano: 10 }));
      await store.settle(settlement({ ...who, now: t0 + HOUR }, { costNano: 5 }));
      counters = await store.keyCounters(who.namespace, who.keyUid, t0 + HOUR);
      expect(counters.usedNano).toBe(15);
      expect(counters.lastUsedTime).toBe(t0 + HOUR);
      expect(counters.windows).toEqual([
        { name: 'FiveHour', usedNano: 15, resetTime: t0 + 5 * HOUR },
        { name: 'Daily', usedNano: 15, resetTime: t0 + 24 * HOUR },
        { name: 'SevenDay', usedNano: 15, resetTime: t0 + 168 * HOUR },
      ]);
      const limits = { ...NO_LIMITS, fiveHourNano: 15 };
      const refused = await store.admit(admission({ ...who, now: t0 + HOUR }, { limits }));
      expect(refused).toEqual({
        admitted: false,
        refusal: { reason: 'WindowExhausted', window: 'FiveHour', retryAfterSeconds: 4 * 3600 },
      });
      const almost = await store.admit(admission({ ...who, now: t0 + 5 * HOUR - 200 }, { limits }));
      expect(almost).toMatchObject({ refusal: { retryAfterSeconds: 1 } });
      const after = await store.admit(
        admission({ ...who, now: t0 + 5 * HOUR }, { limits, estimateNano: 0 }),
      );
      expect(after.admitted).toBe(true);
      counters = await store.keyCounters(who.namespace, who.keyUid, t0 + 6 * HOUR);
      expect(counters.windows[0]).toEqual({ name: 'FiveHour', usedNano: 0, resetTime: null });
      expect(counters.windows[1]?.usedNano).toBe(15);
      await store.settle(settlement({ ...who, now: t0 + 6 * HOUR }, { costNano: 1 }));
      counters = await store.keyCounters(who.namespace, who.keyUid, t0 + 6 * HOUR);
      expect(counters.windows[0]).toEqual({
        name: 'FiveHour',
        usedNano: 1,
        resetTime: t0 + 11 * HOUR,
      });
      expect(counters.windows[1]?.usedNano).toBe(16);
      counters = await store.keyCounters(who.namespace, who.keyUid, t0 + 200 * HOUR);
      expect(counters.windows.map((window) => window.usedNano)).toEqual([0, 0, 0]);
      expect(counters.usedNano).toBe(16);
    });
  });

  describe('reservations and leases', () => {
    it('counts reservations in flight against quota and balance, and settles them', async () => {
      const { store } = holder;
      const who = await tenant(store, { creditNano: 1_000 });
      const now = Date.now();
      const limits = { ...NO_LIMITS, quotaNano: 100 };
      const first = admission({ ...who, now }, { limits, estimateNano: 50 });
      expect((await store.admit(first)).admitted).toBe(true);
      expect(
        (await store.admit(admission({ ...who, now }, { limits, estimateNano: 50 }))).admitted,
      ).toBe(true);
      const third = await store.admit(admission({ ...who, now }, { limits, estimateNano: 50 }));
      expect(third).toEqual({ admitted: false, refusal: { reason: 'QuotaExhausted' } });
      expect((await store.keyCounters(who.namespace, who.keyUid, now)).reservedNano).toBe(100);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 0,
        reservedNano: 100,
      });
      await store.settle(settlement({ ...who, now }, { requestId: first.requestId, costNano: 10 }));
      const counters = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([counters.usedNano, counters.reservedNano]).toEqual([10, 50]);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 10,
        reservedNano: 50,
      });
      expect(
        (await store.admit(admission({ ...who, now }, { limits, estimateNano: 50 }))).admitted,
      ).toBe(true);
    });

    it('frees slots and reservations of expired leases (a gateway died)', async () => {
      const { store } = holder;
      const who = await tenant(store, { maxConcurrent: 1 });
      const now = Date.now();
      const dead = admission(
        { ...who, now },
        { keyMaxConcurrent: 1, leaseMs: 1_000, estimateNano: 70 },
      );
      expect((await store.admit(dead)).admitted).toBe(true);
      const busy = await store.admit(
        admission({ ...who, now: now + 500 }, { keyMaxConcurrent: 1 }),
      );
      expect(busy).toEqual({
        admitted: false,
        refusal: { reason: 'AccountConcurrency', limit: 1 },
      });
      const next = admission(
        { ...who, now: now + 1_000 },
        { keyMaxConcurrent: 1, estimateNano: 30 },
      );
      expect((await store.admit(next)).admitted).toBe(true);
      expect((await store.keyCounters(who.namespace, who.keyUid, now + 1_000)).reservedNano).toBe(
        30,
      );
      // The dead request settling late must not release the live one's reservation.
      const late = await store.settle(
        settlement({ ...who, now: now + 2_000 }, { requestId: dead.requestId, costNano: 5 }),
      );
      expect(late.applied).toBe(true);
      const counters = await store.keyCounters(who.namespace, who.keyUid, now + 2_000);
      expect([counters.usedNano, counters.reservedNano]).toEqual([5, 30]);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 5,
        reservedNano: 30,
      });
    });

    it('renewLease keeps a slot past its first lease', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const streaming = admission({ ...who, now }, { keyMaxConcurrent: 1, leaseMs: 1_000 });
      expect((await store.admit(streaming)).admitted).toBe(true);
      await store.renewLease([{ ...who, requestId: streaming.requestId }], now + 5_000);
      const during = await store.admit(
        admission({ ...who, now: now + 2_000 }, { keyMaxConcurrent: 1 }),
      );
      expect(during).toEqual({ admitted: false, refusal: { reason: 'KeyConcurrency', limit: 1 } });
      const after = await store.admit(
        admission({ ...who, now: now + 5_000 }, { keyMaxConcurrent: 1 }),
      );
      expect(after.admitted).toBe(true);
    });
  });

  describe('settlement', () => {
    it('applies exactly once per request id, also when two settles race', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const request = admission({ ...who, now }, { estimateNano: 500 });
      await store.admit(request);
      const settle = settlement({ ...who, now }, { requestId: request.requestId, costNano: 300 });
      expect(await store.settle(settle)).toEqual({ applied: true });
      expect(await store.settle({ ...settle, costNano: 999 })).toEqual({ applied: false });
      const raced = settlement({ ...who, now }, { costNano: 7 });
      const results = await Promise.all([
        store.settle(raced),
        store.settle(raced),
        store.settle(raced),
      ]);
      expect(results.filter((result) => result.applied)).toHaveLength(1);
      const counters = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([counters.usedNano, counters.reservedNano]).toEqual([307, 0]);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 307,
        reservedNano: 0,
      });
      const pending = await store.pendingUsageRecords(who.namespace, 10);
      expect(pending.map((record) => record.costNano)).toEqual([300, 7]);
    });
  });

  describe('settlement of a reservation', () => {
    it('gives back the key reservation and slot it charges, not recreated once deleted', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const request = admission({ ...who, now }, { estimateNano: 500 });
      await store.admit(request);
      await store.deleteKeyCounters(who.namespace, who.keyUid);
      const settle = settlement({ ...who, now }, { requestId: request.requestId, costNano: 300 });
      expect(await store.settle(settle)).toEqual({ applied: true });
      const counters = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([counters.usedNano, counters.reservedNano]).toEqual([300, 0]);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 300,
        reservedNano: 0,
      });
      // No slot count below zero: a key limit of 1 admits one request, then refuses.
      const limited = { keyMaxConcurrent: 1 };
      expect((await store.admit(admission({ ...who, now }, limited))).admitted).toBe(true);
      expect(await store.admit(admission({ ...who, now }, limited))).toEqual({
        admitted: false,
        refusal: { reason: 'KeyConcurrency', limit: 1 },
      });
    });

    it('releases the key that reserved when another key is charged', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const request = admission({ ...who, now }, { estimateNano: 500 });
      await store.admit(request);
      const charged = { ...who, keyUid: randomUUID() };
      const settle = settlement(
        { ...charged, now },
        { requestId: request.requestId, costNano: 300 },
      );
      expect(await store.settle(settle)).toEqual({ applied: true });
      const reserving = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([reserving.usedNano, reserving.reservedNano]).toEqual([0, 0]);
      const other = await store.keyCounters(who.namespace, charged.keyUid, now);
      expect([other.usedNano, other.reservedNano]).toEqual([300, 0]);
      const limited = { keyMaxConcurrent: 1 };
      expect((await store.admit(admission({ ...who, now }, limited))).admitted).toBe(true);
      expect((await store.admit(admission({ ...charged, now }, limited))).admitted).toBe(true);
    });
  });

  describe('quota reset and deleted keys', () => {
    it('resetQuota zeroes used quota once per token', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      await store.settle(settlement({ ...who, now }, { costNano: 100 }));
      expect(await store.resetQuota(who.namespace, who.keyUid, 'token-1')).toBe(true);
      expect((await store.keyCounters(who.namespace, who.keyUid, now)).usedNano).toBe(0);
      await store.settle(settlement({ ...who, now }, { costNano: 10 }));
      expect(await store.resetQuota(who.namespace, who.keyUid, 'token-1')).toBe(false);
      let counters = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([counters.usedNano, counters.lastQuotaResetToken]).toEqual([10, 'token-1']);
      expect(counters.windows[0]?.usedNano).toBe(110);
      expect(await store.resetQuota(who.namespace, who.keyUid, 'token-2')).toBe(true);
      counters = await store.keyCounters(who.namespace, who.keyUid, now);
      expect([counters.usedNano, counters.lastQuotaResetToken]).toEqual([0, 'token-2']);
    });

    it('deleteKeyCounters starts the key from zero', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      await store.settle(settlement({ ...who, now }, { costNano: 100 }));
      await store.deleteKeyCounters(who.namespace, who.keyUid);
      expect(await store.keyCounters(who.namespace, who.keyUid, now)).toEqual({
        usedNano: 0,
        reservedNano: 0,
        windows: [
          { name: 'FiveHour', usedNano: 0, resetTime: null },
          { name: 'Daily', usedNano: 0, resetTime: null },
          { name: 'SevenDay', usedNano: 0, resetTime: null },
        ],
        lastUsedTime: null,
        lastQuotaResetToken: null,
      });
    });
  });

  describe('upstream slots', () => {
    it('holds at most `limit` slots, frees on release and on lease expiry', async () => {
      const { store } = holder;
      const upstream = uniqueName('upstream');
      const now = Date.now();
      const slot = (requestId: string, at: number) =>
        store.acquireUpstreamSlot({ upstream, requestId, limit: 2, now: at, leaseMs: 1_000 });
      expect(await slot('r1', now)).toBe(true);
      expect(await slot('r2', now)).toBe(true);
      expect(await slot('r3', now)).toBe(false);
      expect(await slot('r1', now + 500)).toBe(true);
      await store.releaseUpstreamSlot(upstream, 'r2');
      expect(await slot('r3', now + 500)).toBe(true);
      expect(await slot('r4', now + 900)).toBe(false);
      // r1 was renewed to now + 1500; r3 holds until now + 1500 as well.
      expect(await slot('r4', now + 1_200)).toBe(false);
      expect(await slot('r4', now + 1_500)).toBe(true);
      const unlimited = { upstream, requestId: randomUUID(), limit: 0, now, leaseMs: 10 };
      expect(await store.acquireUpstreamSlot(unlimited)).toBe(true);
    });
  });

  describe('a burst of concurrent admissions', () => {
    it('never lets in-flight reservations exceed quota plus one estimate', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const estimate = 1_000;
      const limits = { ...NO_LIMITS, quotaNano: 20 * estimate };
      let admitted = 0;
      let worst = 0;
      await Promise.all(
        Array.from({ length: 200 }, async () => {
          const request = admission({ ...who, now }, { limits, estimateNano: estimate });
          const result = await store.admit(request);
          if (!result.admitted) {
            expect(result.refusal.reason).toBe('QuotaExhausted');
            return;
          }
          admitted += 1;
          const counters = await store.keyCounters(who.namespace, who.keyUid, now);
          worst = Math.max(worst, counters.usedNano + counters.reservedNano);
          await store.settle(
            settlement({ ...who, now }, { requestId: request.requestId, costNano: estimate / 2 }),
          );
        }),
      );
      expect(worst).toBeLessThanOrEqual(limits.quotaNano + estimate);
      const final = await store.keyCounters(who.namespace, who.keyUid, now);
      expect(final.reservedNano).toBe(0);
      expect(final.usedNano).toBe((admitted * estimate) / 2);
      expect(final.usedNano).toBeLessThan(limits.quotaNano + estimate);
      expect(admitted).toBeGreaterThanOrEqual(20);
    });
  });
}
