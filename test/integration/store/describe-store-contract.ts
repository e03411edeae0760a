/**
 * The store contract suite, run against every implementation (memory, memory reloaded from disk,
 * Redis standalone, Redis Cluster). `makeStore` is called once per suite; tests use fresh
 * namespaces, key uids and hashes so they never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeBudgetContract,
  describeBudgetRestoreContract,
} from './describe-budget-contract.js';
import { describeCaptureContract } from './describe-capture-contract.js';
import { describeCounterRestoreContract } from './describe-counter-restore-contract.js';
import { describeLeaseChargeContract } from './describe-lease-charge-contract.js';
import { describePolicyMarkerContract } from './describe-policy-marker-contract.js';
import { describeSpendContract } from './describe-spend-contract.js';
import { describeUpstreamHealthContract } from './describe-upstream-health-contract.js';
import { describeUsageContract } from './describe-usage-contract.js';
import { describeNotificationContract } from './describe-notification-contract.js';
import {
  accountPolicy,
  admission,
  keyPolicy,
  NO_LIMITS,
  settlement,
  tenant,
  uniqueName,
} from './store-fixtures.js';
import type { StoreHolder, StoreUnderTest } from './store-under-test.js';

export function describeStoreContract(
  name: string,
  makeStore: () => Promise<StoreUnderTest>,
): void {
  describe(`store contract: ${name}`, () => {
    let current: StoreUnderTest | null = null;
    const holder: StoreHolder = {
      get store() {
        if (current === null) throw new Error('store not created');
        return current.store;
      },
      async dropCountersMarker(namespace) {
        if (current === null) throw new Error('store not created');
        current = await current.dropCountersMarker(namespace);
      },
    };
    beforeAll(async () => {
      current = await makeStore();
    });
    afterAll(async () => {
      await current?.store.close();
    });

    describePolicyContract(holder);
    describePolicyMarkerContract(holder);
    describeRefusalOrder(holder);
    describeSpendContract(holder);
    describeBudgetContract(holder);
    describeLeaseChargeContract(holder);
    describeUsageContract(holder);
    describeCounterRestoreContract(holder);
    describeBudgetRestoreContract(holder);
    describeNotificationContract(holder);
    describeUpstreamHealthContract(holder);
    describeCaptureContract(holder);
  });
}

function describePolicyContract(holder: StoreHolder): void {
  describe('policy documents', () => {
    it('puts, gets, lists digests of and deletes key policies', async () => {
      const { store } = holder;
      const hash = randomBytes(32).toString('hex');
      const policy = keyPolicy({ digest: 'first' });
      expect(await store.getKeyPolicy(hash)).toBeNull();
      await store.putKeyPolicy(hash, policy);
      expect(await store.getKeyPolicy(hash)).toEqual(policy);
      expect((await store.listKeyPolicyDigests()).get(hash)).toBe('first');
      await store.putKeyPolicy(hash, { ...policy, digest: 'second', suspended: true });
      expect((await store.getKeyPolicy(hash))?.suspended).toBe(true);
      expect((await store.listKeyPolicyDigests()).get(hash)).toBe('second');
      await store.deleteKeyPolicy(hash);
      expect(await store.getKeyPolicy(hash)).toBeNull();
      expect((await store.listKeyPolicyDigests()).has(hash)).toBe(false);
    });

    it("keeps a key policy's group stream timeouts, and their absence", async () => {
      const { store } = holder;
      const timed = randomBytes(32).toString('hex');
      const plain = randomBytes(32).toString('hex');
      const base = keyPolicy({ digest: 'timed' });
      const group = { ...base.group!, firstOutputTimeoutMs: 0, streamIdleTimeoutMs: 90_000 };
      await store.putKeyPolicy(timed, { ...base, group });
      await store.putKeyPolicy(plain, keyPolicy({ digest: 'plain' }));
      expect((await store.getKeyPolicy(timed))?.group).toMatchObject({
        firstOutputTimeoutMs: 0,
        streamIdleTimeoutMs: 90_000,
      });
      expect((await store.getKeyPolicy(plain))?.group).not.toHaveProperty('firstOutputTimeoutMs');
      await store.deleteKeyPolicy(timed);
      await store.deleteKeyPolicy(plain);
    });

    it('puts, gets and deletes groups, upstreams and accounts', async () => {
      const { store } = holder;
      const group = {
        digest: 'g',
        name: uniqueName('group'),
        platform: 'Gemini' as const,
        multiplierText: '2',
        upstreams: [{ name: 'u', weight: 2, priority: 1 }],
      };
      const upstream = {
        digest: 'u',
        name: uniqueName('upstream'),
        platform: 'Antigravity' as const,
        baseURL: 'http://127.0.0.1:1',
        sealedCredential: 'v1.AAAA',
        credentialType: 'GoogleOAuth' as const,
        oauth: { clientID: 'c', tokenURL: 'http://127.0.0.1:2/token', projectID: 'p' },
        maxConcurrent: 3,
        modelOverrides: { 'gemini-x': 'gemini-y' },
        chatCompletions: 'Translate' as const,
      };
      const namespace = uniqueName('ns');
      const account = accountPolicy(namespace, { creditNano: 5_000_000_000, maxConcurrent: 4 });
      await store.putGroup(group);
      await store.putUpstream(upstream);
      await store.putAccount(namespace, account);
      expect(await store.getGroup(group.name)).toEqual(group);
      expect(await store.getUpstream(upstream.name)).toEqual(upstream);
      expect(await store.getAccount(namespace)).toEqual(account);
      await store.deleteGroup(group.name);
      await store.deleteUpstream(upstream.name);
      await store.deleteAccount(namespace);
      expect(await store.getGroup(group.name)).toBeNull();
      expect(await store.getUpstream(upstream.name)).toBeNull();
      expect(await store.getAccount(namespace)).toBeNull();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

function describeRefusalOrder(holder: StoreHolder): void {
  describe('admission refusals, in order', () => {
    const now = Date.now();
    const everythingDenied = { sourceDenied: true, modelDenied: true };

    it('admits and returns the account uid', async () => {
      const who = await tenant(holder.store);
      const result = await holder.store.admit(admission({ ...who, now }));
      expect(result).toEqual({ admitted: true, accountUid: who.accountUid });
    });

    it('admits a repeated request id once (a retried call keeps one reservation)', async () => {
      const { store } = holder;
      const who = await tenant(store, { maxConcurrent: 1 });
      const request = admission({ ...who, now }, { estimateNano: 70 });
      expect((await store.admit(request)).admitted).toBe(true);
      expect(await store.admit(request)).toEqual({ admitted: true, accountUid: who.accountUid });
      expect((await store.keyCounters(who.namespace, who.keyUid, now)).reservedNano).toBe(70);
    });

    it('admits a repeated request id that no limit refuses with its first reservation only', async () => {
      const { store } = holder;
      const who = await tenant(store);
      const request = admission({ ...who, now }, { estimateNano: 70 });
      expect(await store.admit(request)).toEqual({ admitted: true, accountUid: who.accountUid });
      const again = { ...request, estimateNano: 90, keyMaxConcurrent: 2 };
      expect(await store.admit(again)).toEqual({ admitted: true, accountUid: who.accountUid });
      expect((await store.keyCounters(who.namespace, who.keyUid, now)).reservedNano).toBe(70);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 0,
        reservedNano: 70,
      });
      // One slot is held: a second request of the key is refused at a key limit of 1.
      const other = await store.admit(admission({ ...who, now }, { keyMaxConcurrent: 1 }));
      expect(other).toEqual({ admitted: false, refusal: { reason: 'KeyConcurrency', limit: 1 } });
      const settle = settlement({ ...who, now }, { requestId: request.requestId, costNano: 10 });
      await store.settle(settle);
      expect((await store.keyCounters(who.namespace, who.keyUid, now)).reservedNano).toBe(0);
      expect(await store.accountCounters(who.namespace)).toEqual({
        spentNano: 10,
        reservedNano: 0,
      });
    });

    it('refuses an over-quota key with QuotaExhausted before every other reason', async () => {
      const { store } = holder;
      const who = await tenant(store, { creditNano: 0, maxConcurrent: 1 });
      await store.settle(settlement({ ...who, now }, { costNano: 100 }));
      const limits = { ...NO_LIMITS, quotaNano: 100, dailyNano: 50 };
      const result = await store.admit(admission({ ...who, now }, { limits, ...everythingDenied }));
      expect(result).toEqual({ admitted: false, refusal: { reason: 'QuotaExhausted' } });
      const under = { ...limits, quotaNano: 101 };
      const next = await store.admit(admission({ ...who, now }, { limits: under }));
      expect(next).toMatchObject({ refusal: { reason: 'WindowExhausted', window: 'Daily' } });
    });

    it('refuses a used-up window before the source check, with retryAfter to its reset', async () => {
      const { store } = holder;
      const who = await tenant(store, null);
      await store.settle(settlement({ ...who, now }, { costNano: 60 }));
      const limits = { ...NO_LIMITS, fiveHourNano: 1_000, sevenDayNano: 60 };
      const later = now + 3_600_000;
      const result = await store.admit(
        admission({ ...who, now: later }, { limits, ...everythingDenied }),
      );
      expect(result).toEqual({
        admitted: false,
        refusal: {
          reason: 'WindowExhausted',
          window: 'SevenDay',
          retryAfterSeconds: (7 * 24 - 1) * 3600,
        },
      });
    });

    it('refuses SourceDenied before NoAccount, and NoAccount before the model check', async () => {
      const { store } = holder;
      const who = await tenant(store, null);
      const denied = await store.admit(admission({ ...who, now }, everythingDenied));
      expect(denied).toEqual({ admitted: false, refusal: { reason: 'SourceDenied' } });
      const noAccount = await store.admit(admission({ ...who, now }, { modelDenied: true }));
      expect(noAccount).toEqual({ admitted: false, refusal: { reason: 'NoAccount' } });
    });

    it('refuses BalanceExhausted when spent reaches the credit (0 = no credit)', async () => {
      const { store } = holder;
      const broke = await tenant(store, { creditNano: 0 });
      const none = await store.admit(admission({ ...broke, now }, { modelDenied: true }));
      expect(none).toEqual({ admitted: false, refusal: { reason: 'BalanceExhausted' } });
      const who = await tenant(store, { creditNano: 1_000, maxConcurrent: 1 });
      const first = await store.admit(admission({ ...who, now }, { estimateNano: 400 }));
      expect(first.admitted).toBe(true);
      await store.settle(settlement({ ...who, now }, { costNano: 600 }));
      const result = await store.admit(admission({ ...who, now }, { modelDenied: true }));
      expect(result).toEqual({ admitted: false, refusal: { reason: 'BalanceExhausted' } });
    });

    it('refuses AccountConcurrency before KeyConcurrency before ModelDenied', async () => {
      const { store } = holder;
      const who = await tenant(store, { maxConcurrent: 2 });
      const request = { keyMaxConcurrent: 1 };
      expect((await store.admit(admission({ ...who, now }, request))).admitted).toBe(true);
      const keyFull = await store.admit(
        admission({ ...who, now }, { ...request, modelDenied: true }),
      );
      expect(keyFull).toEqual({ admitted: false, refusal: { reason: 'KeyConcurrency', limit: 1 } });
      const other = { ...who, keyUid: 'other-key' };
      expect((await store.admit(admission({ ...other, now }))).admitted).toBe(true);
      const accountFull = await store.admit(admission({ ...who, now }, request));
      expect(accountFull).toEqual({
        admitted: false,
        refusal: { reason: 'AccountConcurrency', limit: 2 },
      });
      const fresh = await tenant(store);
      const model = await store.admit(admission({ ...fresh, now }, { modelDenied: true }));
      expect(model).toEqual({ admitted: false, refusal: { reason: 'ModelDenied' } });
    });
  });
}
