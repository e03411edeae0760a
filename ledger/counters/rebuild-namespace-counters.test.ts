import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../store/redis-store.js';
import type { Store } from '../../store/store.js';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { insertUsageRecords } from '../insert-usage-records.js';
import type { LedgerRecord } from '../ledger-record.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { rebuildNamespaceCounters } from './rebuild-namespace-counters.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const NAMESPACE = 'team-rebuild';
const KEYS = ['key-a', 'key-b', 'key-c'];

/** A deterministic pseudo-random sequence (the test must not depend on luck). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe.each(LEDGER_KINDS)('counters rebuilt from the ledger on %s', (kind) => {
  let ledger: TestLedger;
  let redis: RedisServer;
  let store: Store;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    // A private Redis: this test flushes it.
    redis = await startRedisServer();
    store = await createRedisStore({ url: redis.url, prefix: 'tg:' });
  });
  afterAll(async () => {
    await store.close();
    await redis.stop();
    await ledger.drop();
  });

  it('restores quota, windows, last use and account spend after Redis lost them', async () => {
    const random = sequence(7);
    const records: LedgerRecord[] = [];
    const quotaSince: Record<string, number> = {};
    let time = T0;
    for (let index = 0; index < 300; index++) {
      // Gaps from minutes to most of a day, so windows close and reopen.
      time += Math.floor(random() * (random() < 0.1 ? 20 * H : H));
      const keyUid = KEYS[index % KEYS.length]!;
      const costNano = random() < 0.15 ? 0 : Math.floor(random() * 50_000_000);
      const record = makeRecord({
        requestId: `rebuild-${index}`,
        namespace: NAMESPACE,
        keyUid,
        time: time - 2_000,
        durationMs: 1_500,
        costNano,
        chargedAt: time,
      });
      await store.settle({
        requestId: record.requestId,
        namespace: NAMESPACE,
        keyUid,
        costNano,
        now: time,
        record,
      });
      records.push(record);
      if (index === 150) {
        time += 1;
        await store.resetQuota(NAMESPACE, 'key-b', 'reset-1');
        quotaSince['key-b'] = time;
      }
    }
    const now = time + H;
    // The recorder may deliver in any order and more than once.
    await insertUsageRecords(ledger.db, records.slice(100));
    await insertUsageRecords(ledger.db, records.slice(0, 120));

    const before = await Promise.all(KEYS.map((key) => store.keyCounters(NAMESPACE, key, now)));
    const spentBefore = (await store.accountCounters(NAMESPACE)).spentNano;
    expect(spentBefore).toBeGreaterThan(0);

    const flush = await startFlush(redis.url);
    await flush();
    expect((await store.keyCounters(NAMESPACE, 'key-a', now)).usedNano).toBe(0);

    const rebuilt = await rebuildNamespaceCounters(ledger.db, {
      namespace: NAMESPACE,
      now,
      quotaSince,
    });
    expect(rebuilt.accountSpentNano).toBe(spentBefore);
    expect(rebuilt.keys.map((key) => key.keyUid)).toEqual(KEYS);
    rebuilt.keys.forEach((key, index) => {
      const live = before[index]!;
      expect(key.usedNano).toBe(live.usedNano);
      expect(key.lastUsedTime).toBe(live.lastUsedTime);
      expect(
        key.windows.map(({ name, usedNano, resetTime }) => ({ name, usedNano, resetTime })),
      ).toEqual(live.windows);
    });
    // The scenario exercised what it should: an open window and a reset quota.
    expect(before.some((key) => key.windows.some((window) => window.resetTime !== null))).toBe(
      true,
    );
    expect(rebuilt.keys[1]!.usedNano).toBeLessThan(
      records.filter((record) => record.keyUid === 'key-b').reduce((s, r) => s + r.costNano, 0),
    );
  });
});

async function startFlush(url: string): Promise<() => Promise<void>> {
  const { Redis } = await import('ioredis');
  return async () => {
    const client = new Redis(url);
    await client.flushall();
    client.disconnect();
  };
}
