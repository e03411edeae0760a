/**
 * The upstream health contract (store/upstream-health.ts), run on every store: cool-downs with and
 * without a reset time, the circuit that opens after consecutive failures and lets exactly one
 * probe through once the open period ends, requests per minute and concurrency slots decided in
 * the same claim, the credential flag, and sticky session bindings renewed by admission.
 */
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './store-under-test.js';
import { admission, tenant, uniqueName } from './store-fixtures.js';
import type { UpstreamClaimRequest, UpstreamHealthPolicy } from '../../../store/upstream-health.js';

const POLICY: UpstreamHealthPolicy = {
  failureThreshold: 3,
  baseCooldownMs: 1_000,
  maxCooldownMs: 8_000,
};

function claim(upstream: string, now: number, overrides: Partial<UpstreamClaimRequest> = {}) {
  return {
    upstream,
    requestId: uniqueName('req'),
    limit: 0,
    requestsPerMinute: 0,
    now,
    leaseMs: 60_000,
    probeLeaseMs: 10_000,
    ...overrides,
  };
}

export function describeUpstreamHealthContract(holder: StoreHolder): void {
  describe('upstream health', () => {
    // A fixed minute start, so the requests-per-minute window is the same for the whole test.
    const now = 1_800_000_000_000;

    it('grants a healthy upstream without recording anything', async () => {
      const upstream = uniqueName('up');
      expect(await holder.store.claimUpstream(claim(upstream, now))).toEqual({
        granted: true,
        probe: false,
        slot: false,
        dirty: false,
      });
      const health = await holder.store.upstreamHealth([upstream], now);
      expect(health.get(upstream)).toEqual({
        state: 'Healthy',
        until: null,
        failures: 0,
        cause: null,
        credentialsFailedAt: null,
      });
    });

    it('cools a rate-limited upstream down until the reset time, then grants it again', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const result = await store.reportUpstreamFailure({
        upstream,
        kind: 'rate-limited',
        resetAt: now + 30_000,
        now,
        policy: POLICY,
      });
      expect(result).toMatchObject({ state: 'CoolingDown', until: now + 30_000, started: true });
      expect(await store.claimUpstream(claim(upstream, now + 29_999))).toEqual({
        granted: false,
        reason: 'CoolingDown',
        until: now + 30_000,
      });
      expect(await store.claimUpstream(claim(upstream, now + 30_000))).toMatchObject({
        granted: true,
        dirty: true,
      });
      await store.reportUpstreamSuccess(upstream);
      expect((await store.upstreamHealth([upstream], now)).get(upstream)?.state).toBe('Healthy');
      expect(await store.claimUpstream(claim(upstream, now))).toMatchObject({ dirty: false });
    });

    it('backs off without a reset time: base, then doubled, capped, and a later end wins', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const report = { upstream, kind: 'overloaded' as const, resetAt: null, policy: POLICY };
      expect((await store.reportUpstreamFailure({ ...report, now })).until).toBe(now + 1_000);
      const second = await store.reportUpstreamFailure({ ...report, now: now + 1_000 });
      expect(second).toMatchObject({ until: now + 3_000, started: true, cause: 'overloaded' });
      const third = await store.reportUpstreamFailure({ ...report, now: now + 1_500 });
      expect(third).toMatchObject({ until: now + 5_500, started: false });
      for (let index = 0; index < 5; index++) {
        await store.reportUpstreamFailure({ ...report, now: now + 2_000 });
      }
      expect((await store.upstreamHealth([upstream], now + 2_000)).get(upstream)?.until).toBe(
        now + 10_000,
      );
    });

    it('opens the circuit after consecutive failures and lets one probe through', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const failure = { upstream, kind: 'failed' as const, resetAt: null, policy: POLICY };
      expect(await store.reportUpstreamFailure({ ...failure, now })).toMatchObject({
        state: 'Healthy',
        failures: 1,
        started: false,
      });
      await store.reportUpstreamFailure({ ...failure, now });
      expect((await store.claimUpstream(claim(upstream, now))).granted).toBe(true);
      const opened = await store.reportUpstreamFailure({ ...failure, now });
      expect(opened).toMatchObject({ state: 'CircuitOpen', until: now + 1_000, started: true });
      expect(await store.claimUpstream(claim(upstream, now + 500))).toEqual({
        granted: false,
        reason: 'CircuitOpen',
        until: now + 1_000,
      });
      const probe = await store.claimUpstream(claim(upstream, now + 1_000, { requestId: 'p1' }));
      expect(probe).toEqual({ granted: true, probe: true, slot: false, dirty: true });
      // Half-open: everyone else is refused while the probe's claim lasts.
      expect(await store.claimUpstream(claim(upstream, now + 1_001))).toEqual({
        granted: false,
        reason: 'CircuitOpen',
        until: now + 11_000,
      });
      expect((await store.upstreamHealth([upstream], now + 1_001)).get(upstream)?.state).toBe(
        'CircuitOpen',
      );
      // The probe failed: reopened for the doubled period.
      const reopened = await store.reportUpstreamFailure({ ...failure, now: now + 1_100 });
      expect(reopened).toMatchObject({ state: 'CircuitOpen', until: now + 3_100, started: false });
      // A second probe succeeds: the circuit closes.
      const again = await store.claimUpstream(claim(upstream, now + 3_100, { requestId: 'p2' }));
      expect(again).toMatchObject({ granted: true, probe: true });
      await store.reportUpstreamSuccess(upstream);
      expect(await store.claimUpstream(claim(upstream, now + 3_101))).toEqual({
        granted: true,
        probe: false,
        slot: false,
        dirty: false,
      });
    });

    it('lets another caller probe once the probe claim has lapsed', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const failure = { upstream, kind: 'failed' as const, resetAt: null, now, policy: POLICY };
      for (let index = 0; index < 3; index++) await store.reportUpstreamFailure(failure);
      await store.claimUpstream(claim(upstream, now + 1_000, { requestId: 'lost-probe' }));
      const next = await store.claimUpstream(claim(upstream, now + 11_000));
      expect(next).toMatchObject({ granted: true, probe: true });
    });

    it('skips an upstream at its requests-per-minute limit until the next minute', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const limited = { requestsPerMinute: 2 };
      expect((await store.claimUpstream(claim(upstream, now, limited))).granted).toBe(true);
      expect((await store.claimUpstream(claim(upstream, now + 10, limited))).granted).toBe(true);
      expect(await store.claimUpstream(claim(upstream, now + 20, limited))).toEqual({
        granted: false,
        reason: 'RequestsPerMinute',
        until: now + 60_000,
      });
      expect((await store.claimUpstream(claim(upstream, now + 60_000, limited))).granted).toBe(
        true,
      );
    });

    it('takes a concurrency slot in the same claim and refuses when all are held', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const first = await store.claimUpstream(claim(upstream, now, { limit: 1, requestId: 'a' }));
      expect(first).toMatchObject({ granted: true, slot: true });
      expect(await store.claimUpstream(claim(upstream, now, { limit: 1 }))).toEqual({
        granted: false,
        reason: 'Busy',
        until: null,
      });
      await store.releaseUpstreamSlot(upstream, 'a');
      expect((await store.claimUpstream(claim(upstream, now, { limit: 1 }))).granted).toBe(true);
    });

    it('counts a claim refused for a busy upstream in no minute', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const limits = { limit: 1, requestsPerMinute: 2 };
      const first = await store.claimUpstream(claim(upstream, now, { ...limits, requestId: 'a' }));
      expect(first).toMatchObject({ granted: true, slot: true });
      expect(await store.claimUpstream(claim(upstream, now + 10, limits))).toMatchObject({
        reason: 'Busy',
      });
      await store.releaseUpstreamSlot(upstream, 'a');
      const second = await store.claimUpstream(
        claim(upstream, now + 20, { ...limits, requestId: 'b' }),
      );
      expect(second).toMatchObject({ granted: true, slot: true });
      await store.releaseUpstreamSlot(upstream, 'b');
      expect(await store.claimUpstream(claim(upstream, now + 30, limits))).toEqual({
        granted: false,
        reason: 'RequestsPerMinute',
        until: now + 60_000,
      });
    });

    it('frees a concurrency slot whose lease ended', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const slot = { limit: 1, leaseMs: 1_000 };
      expect(await store.claimUpstream(claim(upstream, now, slot))).toMatchObject({ slot: true });
      expect(await store.claimUpstream(claim(upstream, now + 999, slot))).toMatchObject({
        reason: 'Busy',
      });
      expect(await store.claimUpstream(claim(upstream, now + 1_000, slot))).toMatchObject({
        granted: true,
        slot: true,
      });
    });

    it('records a credential refusal without cooling down, cleared by a success', async () => {
      const { store } = holder;
      const upstream = uniqueName('up');
      const result = await store.reportUpstreamFailure({
        upstream,
        kind: 'credentials',
        resetAt: null,
        now,
        policy: POLICY,
      });
      expect(result).toMatchObject({ state: 'Healthy', credentialsFailedAt: now, started: false });
      expect(await store.claimUpstream(claim(upstream, now))).toMatchObject({
        granted: true,
        dirty: true,
      });
      await store.reportUpstreamSuccess(upstream);
      const health = await store.upstreamHealth([upstream], now);
      expect(health.get(upstream)?.credentialsFailedAt).toBeNull();
    });
  });

  describe('sticky session bindings', () => {
    it('returns the bound upstream at admission and renews it; none without a binding', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const session = { id: uniqueName('session'), ttlMs: 60_000 };
      const first = await store.admit({ ...admission({ ...who, now }), session });
      expect(first).toEqual({ admitted: true, accountUid: who.accountUid, boundUpstream: null });
      await store.bindSession({
        namespace: who.namespace,
        session: session.id,
        upstream: 'up-a',
        ttlMs: 60_000,
        now,
      });
      const second = await store.admit({ ...admission({ ...who, now }), session });
      expect(second).toEqual({ admitted: true, accountUid: who.accountUid, boundUpstream: 'up-a' });
      // Bindings are per namespace: another account's same session id is unbound.
      const other = await tenant(store);
      const elsewhere = await store.admit({ ...admission({ ...other, now }), session });
      expect(elsewhere).toMatchObject({ boundUpstream: null });
      await store.bindSession({
        namespace: who.namespace,
        session: session.id,
        upstream: 'up-b',
        ttlMs: 60_000,
        now,
      });
      const third = await store.admit({ ...admission({ ...who, now }), session });
      expect(third).toMatchObject({ boundUpstream: 'up-b' });
    });

    it('keeps a binding past its first TTL while admissions renew it', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const id = uniqueName('session');
      const binding = { namespace: who.namespace, session: id, upstream: 'u', ttlMs: 200 };
      await store.bindSession({ ...binding, now: Date.now() });
      const session = { id, ttlMs: 60_000 };
      const first = await store.admit({ ...admission({ ...who, now: Date.now() }), session });
      expect(first).toMatchObject({ boundUpstream: 'u' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = await store.admit({ ...admission({ ...who, now: Date.now() }), session });
      expect(later).toMatchObject({ admitted: true, boundUpstream: 'u' });
    });

    it('forgets a binding after its TTL', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const now = Date.now();
      const id = uniqueName('session');
      await store.bindSession({
        namespace: who.namespace,
        session: id,
        upstream: 'u',
        ttlMs: 50,
        now,
      });
      await new Promise((resolve) => setTimeout(resolve, 120));
      const later = Date.now();
      const result = await store.admit({
        ...admission({ ...who, now: later }),
        session: { id, ttlMs: 60_000 },
      });
      expect(result).toMatchObject({ admitted: true, boundUpstream: null });
    });
  });
}
