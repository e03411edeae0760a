/**
 * Lease renewal on real stores: a registered in-flight request keeps its concurrency slot past
 * its lease; once removed, the lease runs out and the slot frees itself (a dead gateway leaks
 * nothing). Also the trusted-proxy caller address end to end.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LeaseRenewer } from '../../../gateway/stages/admit/renew-leases.js';
import type { AdmissionResult, Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  type StoreKind,
} from '../../support/gateway-fixture.js';
import { admission, leaseCharge } from '../store/store-fixtures.js';

const leaseMs = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<StoreKind>(['memory', 'redis'])('on the %s store', (kind) => {
  let store: Store;
  const secrets = newSecrets();

  beforeAll(async () => {
    store = await openStore(kind, inject('redisUrl'));
    await writeAccount(store, 'team-lease');
  });

  afterAll(async () => {
    await store.close();
  });

  const admit = (keyUid: string, requestId: string): Promise<AdmissionResult> =>
    store.admit({
      requestId,
      namespace: 'team-lease',
      keyUid,
      limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      keyMaxConcurrent: 1,
      sourceDenied: false,
      modelDenied: false,
      estimateNano: 0,
      now: Date.now(),
      leaseMs,
    });

  it('keeps a renewed slot and frees it once renewal stops', async () => {
    const keyUid = randomUUID();
    const renewer = new LeaseRenewer({ store, leaseMs, clock: Date.now, onError: () => undefined });
    expect((await admit(keyUid, 'streaming')).admitted).toBe(true);
    renewer.add({ namespace: 'team-lease', keyUid, requestId: 'streaming' });
    await sleep(leaseMs * 3);
    const during = await admit(keyUid, 'second');
    expect(during.admitted ? 'admitted' : during.refusal.reason).toBe('KeyConcurrency');
    renewer.remove('streaming');
    await sleep(leaseMs * 2);
    expect((await admit(keyUid, 'third')).admitted).toBe(true);
    renewer.stop();
  });

  it('keeps a renewed upstream slot until the request is removed', async () => {
    const keyUid = randomUUID();
    const upstream = `up-${randomUUID().slice(0, 8)}`;
    const renewer = new LeaseRenewer({ store, leaseMs, clock: Date.now, onError: () => undefined });
    const slot = (requestId: string) =>
      store.acquireUpstreamSlot({ upstream, requestId, limit: 1, now: Date.now(), leaseMs });
    expect((await admit(keyUid, 'long')).admitted).toBe(true);
    expect(await slot('long')).toBe(true);
    renewer.add({ namespace: 'team-lease', keyUid, requestId: 'long' });
    renewer.holdUpstreamSlot('long', { upstream, limit: 1 });
    await sleep(leaseMs * 3);
    expect(await slot('other')).toBe(false);
    renewer.remove('long');
    await sleep(leaseMs * 2);
    expect(await slot('other')).toBe(true);
    renewer.stop();
  });

  it("carries each request's progress, which the store charges when the lease ends", async () => {
    const keyUid = randomUUID();
    const requestId = `cut-${randomUUID()}`;
    const now = Date.now();
    const charge = leaseCharge({ namespace: 'team-lease', keyUid, now, requestId });
    const admitted = await store.admit({
      ...admission({ namespace: 'team-lease', keyUid, now }, { requestId, charge }),
      estimateNano: 900,
      leaseMs,
    });
    expect(admitted.admitted).toBe(true);
    const renewer = new LeaseRenewer({ store, leaseMs, clock: Date.now, onError: () => undefined });
    const delivered = { ...charge.record, upstream: 'up-1', flags: ['lease-expired', 'x'] };
    let reads = 0;
    renewer.add({
      namespace: 'team-lease',
      keyUid,
      requestId,
      progress: () => {
        reads += 1;
        return { record: delivered, deliveredNano: 200, chargeNano: 350 };
      },
    });
    // A request whose progress cannot be read is still renewed.
    const other = `other-${randomUUID()}`;
    const otherKey = randomUUID();
    expect((await admit(otherKey, other)).admitted).toBe(true);
    renewer.add({
      namespace: 'team-lease',
      keyUid: otherKey,
      requestId: other,
      progress: () => {
        throw new Error('unreadable');
      },
    });
    await renewer.renewNow();
    expect(reads).toBeGreaterThanOrEqual(1);
    // Renewed by the renewer's own period despite its progress: the key's one slot is still held
    // twice its lease later.
    await sleep(leaseMs * 2);
    const during = await admit(otherKey, `third-${randomUUID()}`);
    expect(during.admitted ? 'admitted' : during.refusal.reason).toBe('KeyConcurrency');
    renewer.remove(requestId);
    renewer.remove(other);
    await sleep(leaseMs * 2);
    await store.sweepExpiredLeases({ now: Date.now(), claimMs: 1 });
    const records = await store.pendingUsageRecords('team-lease', 100);
    const cut = records.find((record) => record.requestId === requestId);
    expect(cut).toMatchObject({ costNano: 350, upstream: 'up-1', flags: ['lease-expired', 'x'] });
  });

  it('uses the right-most untrusted X-Forwarded-For entry behind a trusted proxy', async () => {
    const created = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace: 'team-lease',
      overrides: { sourceRanges: { allow: ['198.51.100.0/24'], deny: [] } },
    });
    const request = {
      method: 'GET' as const,
      url: '/v1/models',
      headers: { 'x-api-key': created.value, 'x-forwarded-for': '203.0.113.1, 198.51.100.7' },
    };
    const trusting = buildGateway(store, secrets, { config: { trustedProxies: ['127.0.0.0/8'] } });
    const untrusting = buildGateway(store, secrets);
    try {
      expect((await trusting.inject(request)).statusCode).toBe(200);
      const refused = await untrusting.inject(request);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('TG_SOURCE_DENIED');
    } finally {
      await trusting.close();
      await untrusting.close();
    }
  });
});
