/**
 * Contract: counters the store lost are refused as `CountersRestoring` until restored, new
 * accounts are served at once, and the restore writes back only what the ledger saw (the stream
 * position must not have moved) in one atomic step.
 */
import { describe, expect, it } from 'vitest';
import type { CounterRestore } from '../../../store/store.js';
import type { StoreHolder } from './store-under-test.js';
import { accountPolicy, admission, NO_LIMITS, settlement, uniqueName } from './store-fixtures.js';
import { randomUUID } from 'node:crypto';

const HOUR = 3_600_000;

export function describeCounterRestoreContract(holder: StoreHolder): void {
  describe('counters restored from the ledger', () => {
    it('serves a new account at once and never lists it for a restore', async () => {
      const { store } = holder;
      const namespace = uniqueName('ns');
      await store.putAccount(namespace, accountPolicy(namespace), { programmedBefore: false });
      const now = Date.now();
      const result = await store.admit(admission({ namespace, keyUid: randomUUID(), now }));
      expect(result.admitted).toBe(true);
      expect(await store.namespacesToRestore({ scan: true })).not.toContain(namespace);
    });

    it('refuses an account programmed before until its counters are restored', async () => {
      const { store } = holder;
      const namespace = uniqueName('ns');
      const keyUid = randomUUID();
      const now = Date.now();
      await store.putAccount(namespace, accountPolicy(namespace), { programmedBefore: true });
      // Put again (a resync) while waiting: still waiting, listed once.
      await store.putAccount(namespace, accountPolicy(namespace), { programmedBefore: true });
      const limits = { ...NO_LIMITS, quotaNano: 1_000 };
      expect(await store.admit(admission({ namespace, keyUid, now }, { limits }))).toEqual({
        admitted: false,
        refusal: { reason: 'CountersRestoring', retryAfterSeconds: 1 },
      });
      expect(await store.namespacesToRestore({ scan: false })).toContain(namespace);

      // A request admitted before the loss settles meanwhile: its record moves the stream.
      await store.settle(settlement({ namespace, keyUid, now }, { costNano: 50 }));
      const position = await store.usageStreamPosition(namespace);
      expect(position.waiting).toBe(1);
      const restore: CounterRestore = {
        namespace,
        streamLastId: position.lastId,
        accountSpentNano: 950,
        keys: [
          {
            keyUid,
            usedNano: 950,
            windows: [
              { name: 'FiveHour', usedNano: 900, end: now + HOUR },
              { name: 'Daily', usedNano: 950, end: now + 20 * HOUR },
            ],
            lastUsedTime: now,
            lastQuotaResetToken: 'reset-7',
          },
        ],
      };
      // Records still waiting for the recorder: the ledger is not complete yet.
      expect(await store.restoreCounters(restore)).toBe('moved');
      expect(await store.restoreCounters({ ...restore, streamLastId: '0-0' })).toBe('moved');

      const counters = await store.keyCounters(namespace, keyUid, now);
      expect(counters.usedNano).toBe(50);
      expect((await store.admit(admission({ namespace, keyUid, now }))).admitted).toBe(false);
      expect(await store.namespacesToRestore({ scan: true })).toContain(namespace);
    });

    it('writes the rebuilt counters once the stream is drained, then admits against them', async () => {
      const { store } = holder;
      const namespace = uniqueName('ns');
      const keyUid = randomUUID();
      const now = Date.now();
      await store.putAccount(namespace, accountPolicy(namespace, { creditNano: 4_500 }), {
        programmedBefore: true,
      });
      const position = await store.usageStreamPosition(namespace);
      expect(position).toEqual({ waiting: 0, lastId: '0-0' });
      const restore: CounterRestore = {
        namespace,
        streamLastId: position.lastId,
        accountSpentNano: 4_000,
        keys: [
          {
            keyUid,
            usedNano: 900,
            windows: [
              { name: 'FiveHour', usedNano: 900, end: now + HOUR },
              { name: 'Daily', usedNano: 2_000, end: now - HOUR },
            ],
            lastUsedTime: now - 10,
            lastQuotaResetToken: 'reset-7',
          },
        ],
      };
      expect(await store.restoreCounters(restore)).toBe('restored');
      expect(await store.restoreCounters(restore)).toBe('present');
      expect(await store.namespacesToRestore({ scan: true })).not.toContain(namespace);
      expect(await store.keyCounters(namespace, keyUid, now)).toEqual({
        usedNano: 900,
        reservedNano: 0,
        windows: [
          { name: 'FiveHour', usedNano: 900, resetTime: now + HOUR },
          { name: 'Daily', usedNano: 0, resetTime: null },
          { name: 'SevenDay', usedNano: 0, resetTime: null },
        ],
        lastUsedTime: now - 10,
        lastQuotaResetToken: 'reset-7',
      });
      expect(await store.accountCounters(namespace)).toEqual({ spentNano: 4_000, reservedNano: 0 });
      const limits = { ...NO_LIMITS, fiveHourNano: 900 };
      const refused = await store.admit(
        admission({ namespace, keyUid, now }, { limits, estimateNano: 100 }),
      );
      expect(refused).toMatchObject({ refusal: { reason: 'WindowExhausted', window: 'FiveHour' } });
      const admitted = await store.admit(
        admission({ namespace, keyUid, now }, { estimateNano: 500 }),
      );
      expect(admitted.admitted).toBe(true);
      const balance = await store.admit(admission({ namespace, keyUid, now }, { estimateNano: 1 }));
      expect(balance).toEqual({ admitted: false, refusal: { reason: 'BalanceExhausted' } });
      // Putting the account again later does not ask for another restore.
      await store.putAccount(namespace, accountPolicy(namespace), { programmedBefore: true });
      expect(await store.namespacesToRestore({ scan: true })).not.toContain(namespace);
    });

    it('keeps the counters of a store written before the present marker: never restored', async () => {
      const namespace = uniqueName('ns');
      const keyUid = randomUUID();
      const now = Date.now();
      const policy = accountPolicy(namespace, { creditNano: 2_000 });
      await holder.store.putAccount(namespace, policy, { programmedBefore: false });
      const charged = admission({ namespace, keyUid, now }, { estimateNano: 1_500 });
      expect((await holder.store.admit(charged)).admitted).toBe(true);
      await holder.store.settle(
        settlement({ namespace, keyUid, now }, { requestId: charged.requestId, costNano: 1_500 }),
      );
      const keyBefore = await holder.store.keyCounters(namespace, keyUid, now);
      expect(keyBefore.usedNano).toBe(1_500);

      // Upgraded from a release without the marker: admission serves it against its counters.
      await holder.dropCountersMarker(namespace);
      const served = admission({ namespace, keyUid, now }, { estimateNano: 400 });
      expect(await holder.store.admit(served)).toEqual({
        admitted: true,
        accountUid: policy.uid,
      });
      // The recorder's scan neither lists nor restores it.
      expect(await holder.store.namespacesToRestore({ scan: true })).not.toContain(namespace);

      // The operator's resync puts the Account programmed before: not queued.
      await holder.dropCountersMarker(namespace);
      await holder.store.putAccount(namespace, policy, { programmedBefore: true });
      expect(await holder.store.namespacesToRestore({ scan: false })).not.toContain(namespace);
      expect(await holder.store.namespacesToRestore({ scan: true })).not.toContain(namespace);

      // A restore from a ledger without its history (queued before the upgrade) writes nothing.
      await holder.dropCountersMarker(namespace);
      const { store } = holder;
      const position = await store.usageStreamPosition(namespace);
      const empty: CounterRestore = {
        namespace,
        streamLastId: position.lastId,
        accountSpentNano: 0,
        keys: [],
      };
      expect(await store.restoreCounters(empty)).toBe('present');
      expect(await store.restoreCounters({ ...empty, streamLastId: '0-0' })).toBe('present');

      // The counters and every limit hold as before the upgrade.
      expect(await store.keyCounters(namespace, keyUid, now)).toEqual({
        ...keyBefore,
        reservedNano: 400,
      });
      expect(await store.accountCounters(namespace)).toEqual({
        spentNano: 1_500,
        reservedNano: 400,
      });
      const quota = { ...NO_LIMITS, quotaNano: 1_900 };
      expect(await store.admit(admission({ namespace, keyUid, now }, { limits: quota }))).toEqual({
        admitted: false,
        refusal: { reason: 'QuotaExhausted' },
      });
      const window = { ...NO_LIMITS, fiveHourNano: 1_900 };
      expect(
        await store.admit(admission({ namespace, keyUid, now }, { limits: window })),
      ).toMatchObject({
        admitted: false,
        refusal: { reason: 'WindowExhausted', window: 'FiveHour' },
      });
      const last = admission({ namespace, keyUid, now }, { estimateNano: 100 });
      expect((await store.admit(last)).admitted).toBe(true);
      const balance = await store.admit(admission({ namespace, keyUid, now }, { estimateNano: 1 }));
      expect(balance).toEqual({ admitted: false, refusal: { reason: 'BalanceExhausted' } });
    });

    it('still restores an account never charged whose marker is missing', async () => {
      const namespace = uniqueName('ns');
      const keyUid = randomUUID();
      const now = Date.now();
      await holder.store.putAccount(namespace, accountPolicy(namespace), {
        programmedBefore: false,
      });
      await holder.dropCountersMarker(namespace);
      const { store } = holder;
      await store.putAccount(namespace, accountPolicy(namespace), { programmedBefore: true });
      expect(await store.namespacesToRestore({ scan: false })).toContain(namespace);
      expect(await store.admit(admission({ namespace, keyUid, now }))).toEqual({
        admitted: false,
        refusal: { reason: 'CountersRestoring', retryAfterSeconds: 1 },
      });
    });
  });
}
