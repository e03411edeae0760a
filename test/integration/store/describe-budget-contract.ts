/**
 * Contract: plan windows and member budgets (store/budget-windows.ts): checked after the key and
 * before the balance (key -> member -> subscription -> balance), reserved like key windows,
 * charged at settlement and when a lease ends unsettled, calendar windows ending where the caller
 * says.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './store-under-test.js';
import type { CalendarEnds, PlanPolicy } from '../../../store/budget-windows.js';
import { admission, leaseCharge, settlement, tenant } from './store-fixtures.js';

const HOUR = 3_600_000;
const NO_CAPS = { FiveHour: 0, Daily: 0, Weekly: 0, Monthly: 0 };

function calendarAt(now: number): CalendarEnds {
  return { dayEnd: now + 2 * HOUR, weekEnd: now + 50 * HOUR, monthEnd: now + 300 * HOUR };
}

function plan(now: number, overrides: Partial<PlanPolicy> = {}): PlanPolicy {
  return {
    planName: 'pro',
    startTime: now - HOUR,
    endTime: null,
    limits: { ...NO_CAPS, Daily: 100 },
    ...overrides,
  };
}

export function describeBudgetContract(holder: StoreHolder): void {
  describe('member budgets', () => {
    it('sum every key of one owner, leave other owners and keys without one alone', async () => {
      const { store } = holder;
      const now = Date.now();
      const calendar = calendarAt(now);
      const memberLimits = { Daily: 100, Weekly: 0, Monthly: 0 };
      const who = await tenant(store, { memberLimits });
      const budget = { plan: false, owner: 'alice', calendar };
      await store.settle(settlement({ ...who, now }, { costNano: 60, budget }));
      const otherKey = { ...who, keyUid: randomUUID() };
      const first = admission({ ...otherKey, now }, { owner: 'alice', calendar, estimateNano: 40 });
      expect((await store.admit(first)).admitted).toBe(true);
      expect(await store.memberCounters(who.namespace, 'alice', now)).toEqual({
        reservedNano: 40,
        windows: [
          { name: 'Daily', usedNano: 60, resetTime: calendar.dayEnd },
          { name: 'Weekly', usedNano: 60, resetTime: calendar.weekEnd },
          { name: 'Monthly', usedNano: 60, resetTime: calendar.monthEnd },
        ],
      });
      const refused = await store.admit(
        admission({ ...otherKey, now }, { owner: 'alice', calendar }),
      );
      expect(refused).toEqual({
        admitted: false,
        refusal: { reason: 'MemberBudgetExhausted', window: 'Daily', retryAfterSeconds: 7200 },
      });
      expect(
        (await store.admit(admission({ ...who, now }, { owner: 'bob', calendar }))).admitted,
      ).toBe(true);
      expect((await store.admit(admission({ ...who, now }, { calendar }))).admitted).toBe(true);
      // Settling gives the owner's reservation back and charges the cost.
      await store.settle(
        settlement({ ...otherKey, now }, { requestId: first.requestId, costNano: 5, budget }),
      );
      const after = await store.memberCounters(who.namespace, 'alice', now);
      expect([after.reservedNano, after.windows[0]?.usedNano]).toEqual([0, 65]);
      expect(
        (await store.admit(admission({ ...who, now }, { owner: 'alice', calendar }))).admitted,
      ).toBe(true);
    });

    it('open the next calendar window once the one charged has ended', async () => {
      const { store } = holder;
      const now = Date.now();
      const who = await tenant(store, { memberLimits: { Daily: 50, Weekly: 0, Monthly: 0 } });
      const budget = { plan: false, owner: 'carol', calendar: calendarAt(now) };
      await store.settle(settlement({ ...who, now }, { costNano: 50, budget }));
      const before = admission(
        { ...who, now: now + HOUR },
        { owner: 'carol', calendar: budget.calendar },
      );
      expect(await store.admit(before)).toMatchObject({
        refusal: { reason: 'MemberBudgetExhausted', retryAfterSeconds: 3600 },
      });
      const later = now + 2 * HOUR;
      const next = admission(
        { ...who, now: later },
        { owner: 'carol', calendar: calendarAt(later) },
      );
      expect((await store.admit(next)).admitted).toBe(true);
    });
  });

  describe('subscriptions', () => {
    it('refuse at a plan window with its reset, counting the reservations in flight', async () => {
      const { store } = holder;
      const now = Date.now();
      const calendar = calendarAt(now);
      const who = await tenant(store, {
        plan: plan(now, { limits: { ...NO_CAPS, FiveHour: 1_000, Daily: 100 } }),
      });
      await store.settle(
        settlement(
          { ...who, now },
          { costNano: 80, budget: { plan: true, owner: null, calendar } },
        ),
      );
      const first = admission({ ...who, now }, { calendar, estimateNano: 30 });
      expect((await store.admit(first)).admitted).toBe(true);
      expect(await store.admit(admission({ ...who, now }, { calendar }))).toEqual({
        admitted: false,
        refusal: { reason: 'SubscriptionExhausted', window: 'Daily', retryAfterSeconds: 7200 },
      });
      const counters = await store.accountCounters(who.namespace);
      expect(counters.planWindows).toEqual([
        { name: 'FiveHour', usedNano: 80, resetTime: now + 5 * HOUR },
        { name: 'Daily', usedNano: 80, resetTime: calendar.dayEnd },
        { name: 'Weekly', usedNano: 80, resetTime: calendar.weekEnd },
        { name: 'Monthly', usedNano: 80, resetTime: calendar.monthEnd },
      ]);
    });

    it('admit nothing outside the period unless a balance is left to pay', async () => {
      const { store } = holder;
      const now = Date.now();
      const ended = plan(now, { startTime: now - 10 * HOUR, endTime: now - HOUR });
      const expired = await tenant(store, { plan: ended });
      expect(await store.admit(admission({ ...expired, now }))).toEqual({
        admitted: false,
        refusal: { reason: 'SubscriptionExpired' },
      });
      const pending = await tenant(store, { plan: plan(now, { startTime: now + HOUR }) });
      expect(await store.admit(admission({ ...pending, now }))).toMatchObject({
        refusal: { reason: 'SubscriptionExpired' },
      });
      const paying = await tenant(store, { plan: ended, creditNano: 1_500 });
      expect(
        (await store.admit(admission({ ...paying, now }, { estimateNano: 1_000 }))).admitted,
      ).toBe(true);
      expect(
        (await store.admit(admission({ ...paying, now }, { estimateNano: 1_000 }))).admitted,
      ).toBe(true);
      expect(await store.admit(admission({ ...paying, now }))).toEqual({
        admitted: false,
        refusal: { reason: 'SubscriptionExpired' },
      });
    });

    it('check key, then member, then subscription, then balance', async () => {
      const { store } = holder;
      const now = Date.now();
      const calendar = calendarAt(now);
      const who = await tenant(store, {
        plan: plan(now, { limits: { ...NO_CAPS, Daily: 10 } }),
        memberLimits: { Daily: 10, Weekly: 0, Monthly: 0 },
        creditNano: 10,
      });
      const budget = { plan: true, owner: 'dave', calendar };
      await store.settle(settlement({ ...who, now }, { costNano: 10, budget }));
      const limits = { quotaNano: 10, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 };
      const request = { owner: 'dave', calendar };
      expect(await store.admit(admission({ ...who, now }, { ...request, limits }))).toMatchObject({
        refusal: { reason: 'QuotaExhausted' },
      });
      expect(await store.admit(admission({ ...who, now }, request))).toMatchObject({
        refusal: { reason: 'MemberBudgetExhausted' },
      });
      expect(await store.admit(admission({ ...who, now }, { calendar }))).toMatchObject({
        refusal: { reason: 'SubscriptionExhausted' },
      });
      const balanceOnly = await tenant(store, {
        plan: plan(now, { limits: { ...NO_CAPS, Daily: 1_000 } }),
        creditNano: 10,
      });
      await store.settle(settlement({ ...balanceOnly, now }, { costNano: 10, budget }));
      expect(await store.admit(admission({ ...balanceOnly, now }, { calendar }))).toEqual({
        admitted: false,
        refusal: { reason: 'BalanceExhausted' },
      });
    });

    it('charge a lease that ended unsettled to the plan and the owner', async () => {
      const { store } = holder;
      const now = Date.now();
      const calendar = calendarAt(now);
      const who = await tenant(store, {
        plan: plan(now),
        memberLimits: { Daily: 1_000, Weekly: 0, Monthly: 0 },
      });
      const requestId = randomUUID();
      const charge = leaseCharge({ ...who, now, requestId });
      const lease = admission(
        { ...who, now },
        { requestId, owner: 'erin', calendar, estimateNano: 40, leaseMs: 1_000, charge },
      );
      expect((await store.admit(lease)).admitted).toBe(true);
      expect((await store.memberCounters(who.namespace, 'erin', now)).reservedNano).toBe(40);
      // Reading the key's counters charges the namespace's expired leases first.
      await store.keyCounters(who.namespace, who.keyUid, now + 2_000);
      const member = await store.memberCounters(who.namespace, 'erin', now + 2_000);
      expect([member.reservedNano, member.windows[0]?.usedNano]).toEqual([0, 40]);
      const counters = await store.accountCounters(who.namespace);
      expect(counters.reservedNano).toBe(0);
      expect(counters.planWindows?.[1]).toEqual({
        name: 'Daily',
        usedNano: 40,
        resetTime: calendar.dayEnd,
      });
    });

    it('leave an account without a plan or member limits as it was', async () => {
      const { store } = holder;
      const now = Date.now();
      const who = await tenant(store);
      const request = admission({ ...who, now }, { owner: 'frank', calendar: calendarAt(now) });
      expect((await store.admit(request)).admitted).toBe(true);
      await store.settle(settlement({ ...who, now }, { requestId: request.requestId }));
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 1_000,
        reservedNano: 0,
      });
      expect((await store.memberCounters(who.namespace, 'frank', now)).reservedNano).toBe(0);
    });
  });
}

export function describeBudgetRestoreContract(holder: StoreHolder): void {
  describe('plan and member windows restored from the ledger', () => {
    it('writes them with the key counters, then admits against them', async () => {
      const { store } = holder;
      const now = Date.now();
      const calendar = calendarAt(now);
      const namespace = `ns-restore-${randomUUID().slice(0, 8)}`;
      const policy = {
        digest: 'b1',
        uid: `account-${namespace}`,
        namespace,
        creditNano: null,
        maxConcurrent: 0,
        plan: plan(now, { limits: { ...NO_CAPS, Daily: 1_000 } }),
        memberLimits: { Daily: 500, Weekly: 0, Monthly: 0 },
      };
      await store.putAccount(namespace, policy, { programmedBefore: true });
      const position = await store.usageStreamPosition(namespace);
      const keyUid = randomUUID();
      expect(
        await store.restoreCounters({
          namespace,
          streamLastId: position.lastId,
          accountSpentNano: 100,
          keys: [],
          budgets: {
            plan: [{ name: 'Daily', usedNano: 100, end: calendar.dayEnd }],
            members: [
              { owner: 'gina', windows: [{ name: 'Daily', usedNano: 500, end: calendar.dayEnd }] },
            ],
          },
        }),
      ).toBe('restored');
      expect((await store.accountCounters(namespace)).planWindows?.[1]).toEqual({
        name: 'Daily',
        usedNano: 100,
        resetTime: calendar.dayEnd,
      });
      expect(
        await store.admit(admission({ namespace, keyUid, now }, { owner: 'gina', calendar })),
      ).toEqual({
        admitted: false,
        refusal: { reason: 'MemberBudgetExhausted', window: 'Daily', retryAfterSeconds: 7200 },
      });
      const other = admission(
        { namespace, keyUid, now },
        { owner: 'hal', calendar, estimateNano: 1 },
      );
      expect((await store.admit(other)).admitted).toBe(true);
    });
  });
}
