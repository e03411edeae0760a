import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from '../../store/create-store.js';
import type { Store } from '../../store/store.js';
import type { UpstreamClaimRequest } from '../../store/upstream-health.js';
import { cacheCleanClaims } from './cache-clean-claims.js';

const POLICY = { failureThreshold: 3, baseCooldownMs: 5_000, maxCooldownMs: 300_000 };
const NOW = Date.UTC(2026, 10, 24, 12);

let store: Store;
let claims: number;
let monotonic: number;

/** The real memory store, counting the claim scripts it runs. */
function counted() {
  return {
    claimUpstream: (request: UpstreamClaimRequest) => {
      claims += 1;
      return store.claimUpstream(request);
    },
    reportUpstreamFailure: store.reportUpstreamFailure.bind(store),
  };
}

function replica(ttlMs = 500) {
  return cacheCleanClaims({ store: counted(), ttlMs, clock: () => monotonic });
}

function claim(upstream: string, limits: Partial<UpstreamClaimRequest> = {}) {
  return {
    upstream,
    requestId: `r-${Math.random()}`,
    limit: 0,
    requestsPerMinute: 0,
    now: NOW,
    leaseMs: 60_000,
    probeLeaseMs: 30_000,
    ...limits,
  };
}

beforeEach(async () => {
  store = await createStore({});
  claims = 0;
  monotonic = 1_000;
});

afterEach(async () => {
  await store.close();
});

describe('cacheCleanClaims', () => {
  it('reuses a clean grant of an upstream without limits for the cache time only', async () => {
    const gateway = replica();
    expect(await gateway.claimUpstream(claim('up'))).toMatchObject({ granted: true, dirty: false });
    monotonic += 499;
    expect(await gateway.claimUpstream(claim('up'))).toMatchObject({ granted: true });
    expect(claims).toBe(1);
    monotonic += 1;
    await gateway.claimUpstream(claim('up'));
    expect(claims).toBe(2);
  });

  it('sees a cool-down another replica started within the cache time', async () => {
    const a = replica();
    const b = replica();
    await b.claimUpstream(claim('up'));
    await a.reportUpstreamFailure({
      upstream: 'up',
      kind: 'rate-limited',
      resetAt: NOW + 30_000,
      now: NOW,
      policy: POLICY,
    });
    monotonic += 100;
    // Within the cache time B still holds its clean grant (the documented bound)...
    expect(await b.claimUpstream(claim('up'))).toMatchObject({ granted: true });
    monotonic += 400;
    // ...and reads the cool-down once it is over.
    expect(await b.claimUpstream(claim('up'))).toMatchObject({
      granted: false,
      reason: 'CoolingDown',
    });
  });

  it('drops the entry at once when this replica reports a failure', async () => {
    const gateway = replica();
    await gateway.claimUpstream(claim('up'));
    await gateway.reportUpstreamFailure({
      upstream: 'up',
      kind: 'overloaded',
      resetAt: null,
      now: NOW,
      policy: POLICY,
    });
    expect(await gateway.claimUpstream(claim('up'))).toMatchObject({
      granted: false,
      reason: 'CoolingDown',
    });
  });

  it('does not keep a grant read while a failure was being reported', async () => {
    const gateway = replica();
    const pending = gateway.claimUpstream(claim('up'));
    await gateway.reportUpstreamFailure({
      upstream: 'up',
      kind: 'failed',
      resetAt: null,
      now: NOW,
      policy: POLICY,
    });
    await pending;
    await gateway.claimUpstream(claim('up'));
    expect(claims).toBe(2);
  });

  it('claims an upstream with limits on every call, and never caches a dirty grant', async () => {
    const gateway = replica();
    expect(await gateway.claimUpstream(claim('busy', { limit: 1 }))).toMatchObject({
      granted: true,
      slot: true,
    });
    expect(await gateway.claimUpstream(claim('busy', { limit: 1 }))).toMatchObject({
      granted: false,
      reason: 'Busy',
    });
    await store.reportUpstreamFailure({
      upstream: 'dirty',
      kind: 'failed',
      resetAt: null,
      now: NOW,
      policy: POLICY,
    });
    expect(await gateway.claimUpstream(claim('dirty'))).toMatchObject({ dirty: true });
    await gateway.claimUpstream(claim('dirty'));
    expect(claims).toBe(4);
  });

  it('claims every time with the cache off', async () => {
    const gateway = replica(0);
    await gateway.claimUpstream(claim('up'));
    await gateway.claimUpstream(claim('up'));
    expect(claims).toBe(2);
  });
});
