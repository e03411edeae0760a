/**
 * Contract: counters the store lost are refused as `CountersRestoring` until restored, new
 * accounts are served at once, and the restore writes back only what the ledger saw (the stream
 * position must not have moved) in one atomic step.
 */
import { describe, expect, it } from 'vitest';
import type { CounterRestore } from '../../../store/store.js';
import type { StoreHolder } from './describe-store-contract.js';
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
  });
}
