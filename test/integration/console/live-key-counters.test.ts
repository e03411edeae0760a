/**
 * The keys list's live counters on the memory store and on a real Redis: every listed key's
 * counters in one read (used, the three windows with their end, last use; a key never charged at
 * zero), and nothing (so the status is shown) without a store or once it cannot be reached.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { readKeyCounters } from '../../../console/server/usage/live-key-counters.js';
import { createMemoryStore } from '../../../store/memory-store.js';
import { createRedisStore } from '../../../store/redis-store.js';
import { WINDOWS, type Store } from '../../../store/store.js';
import { accountPolicy, settlement } from '../store/store-fixtures.js';

describe.each<[string, () => Promise<Store>]>([
  ['memory', () => Promise.resolve(createMemoryStore({}))],
  [
    'redis',
    () => createRedisStore({ url: inject('redisUrl'), prefix: `test:live:${randomUUID()}:` }),
  ],
])('live key counters on the %s store', (_kind, open) => {
  it("reads every listed key's counters at once, and nothing once the store is gone", async () => {
    const store = await open();
    const now = Date.now();
    await store.putAccount('team-l', accountPolicy('team-l'));
    await store.settle(settlement({ namespace: 'team-l', keyUid: 'k1', now }, { costNano: 2_500 }));
    await store.settle(settlement({ namespace: 'team-l', keyUid: 'k1', now }, { costNano: 500 }));
    await store.settle(settlement({ namespace: 'team-l', keyUid: 'k2', now }, { costNano: 700 }));
    const read = await readKeyCounters(store, {
      namespace: 'team-l',
      keyUids: ['k1', 'k2', 'never-used'],
      now: now + 1_000,
    });
    expect([...(read?.keys() ?? [])]).toEqual(['k1', 'k2', 'never-used']);
    expect(read?.get('k1')).toMatchObject({
      usedNano: 3_000,
      lastUsedTime: now,
      windows: WINDOWS.map((window) => ({
        name: window.name,
        usedNano: 3_000,
        resetTime: now + window.durationMs,
      })),
    });
    expect(read?.get('k2')?.usedNano).toBe(700);
    expect(read?.get('never-used')).toMatchObject({ usedNano: 0, lastUsedTime: null });
    await store.close();
    const gone = await readKeyCounters(store, { namespace: 'team-l', keyUids: ['k1'], now });
    expect(gone).toBeUndefined();
  });
});

it('reads nothing without a store', async () => {
  expect(
    await readKeyCounters(undefined, { namespace: 'team-l', keyUids: ['k1'], now: 0 }),
  ).toBeUndefined();
});
