/**
 * How long each store remembers a settled or charged request id (store/settled-markers.ts): a
 * settlement's marker for the configured lifetime (15 minutes unless the gateway passes more), a
 * lease charged as estimated for 7 days. In Redis, read as the marker key's TTL; in the memory
 * store, as what its file keeps: expired settlement markers leave it, charge markers stay, and a
 * file written with a week of markers of every settlement loses them when read.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createMemoryStore, MEMORY_STORE_FILE } from '../../../store/memory-store.js';
import { createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
import { SETTLED_MARKERS_FOLDER } from '../../../store/settled-marker-journal.js';
import {
  LEASE_CHARGE_MARKER_TTL_MS,
  MIN_SETTLEMENT_MARKER_TTL_MS,
  settlementMarkerTtlMs,
} from '../../../store/settled-markers.js';
import type { Store } from '../../../store/store.js';
import { editStoredNamespace, readStoredNamespace } from './memory-store-file.js';
import { admission, admitChargedLease, settlement, tenant } from './store-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Admits and settles one request at `now`; its id. */
async function settleOne(store: Store, who: Awaited<ReturnType<typeof tenant>>, now: number) {
  const request = admission({ ...who, now }, { estimateNano: 40 });
  await store.admit(request);
  const settled = await store.settle(
    settlement({ ...who, now }, { requestId: request.requestId, costNano: 25 }),
  );
  expect(settled).toEqual({ applied: true });
  return request.requestId;
}

it('keeps a settlement marker twice the retry window, and 15 minutes at least', () => {
  expect(settlementMarkerTtlMs(300_000)).toBe(MIN_SETTLEMENT_MARKER_TTL_MS);
  expect(settlementMarkerTtlMs(1_000)).toBe(15 * 60_000);
  expect(settlementMarkerTtlMs(3_600_000)).toBe(7_200_000);
  expect(LEASE_CHARGE_MARKER_TTL_MS).toBe(7 * 24 * 3_600_000);
});

describe('redis', () => {
  async function open(options: { settlementMarkerTtlMs?: number } = {}) {
    const prefix = `test:markers:${randomUUID()}:`;
    const store = await createRedisStore({ url: inject('redisUrl'), prefix, ...options });
    const client = new Redis(inject('redisUrl'));
    cleanups.push(
      () => {
        client.disconnect();
      },
      () => store.close(),
    );
    return { store, client, names: createRedisKeyNames(prefix) };
  }

  it('gives a settlement marker the configured lifetime, 15 minutes by default', async () => {
    for (const [options, lifetime] of [
      [{}, MIN_SETTLEMENT_MARKER_TTL_MS],
      [{ settlementMarkerTtlMs: 1_200_000 }, 1_200_000],
    ] as const) {
      const { store, client, names } = await open(options);
      const who = await tenant(store);
      const requestId = await settleOne(store, who, Date.now());
      const ttl = await client.pttl(names.namespace(who.namespace).settled(requestId));
      expect(ttl).toBeGreaterThan(lifetime - 60_000);
      expect(ttl).toBeLessThanOrEqual(lifetime);
    }
  });

  it('gives the marker of a lease charged as estimated 7 days', async () => {
    const { store, client, names } = await open({ settlementMarkerTtlMs: 1_200_000 });
    const who = await tenant(store);
    const now = Date.now();
    const { requestId } = await admitChargedLease(store, { ...who, now }, 700);
    // The next admission in the namespace charges the lease that ended.
    await store.admit(admission({ ...who, now: now + 1_000 }, { estimateNano: 5 }));
    const ttl = await client.pttl(names.namespace(who.namespace).settled(requestId));
    expect(ttl).toBeGreaterThan(LEASE_CHARGE_MARKER_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(LEASE_CHARGE_MARKER_TTL_MS);
  });
});

describe('memory store file', () => {
  function dataFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'tollgate-markers-'));
    cleanups.push(() => {
      rmSync(folder, { recursive: true, force: true });
    });
    return folder;
  }

  it('drops settlement markers past their lifetime and keeps charge markers a week', async () => {
    const dataDir = dataFolder();
    const lifetime = 1_200_000;
    const store = await createMemoryStore({
      dataDir,
      persistDebounceMs: 3_600_000,
      settlementMarkerTtlMs: lifetime,
    });
    const who = await tenant(store);
    const now = Date.now();
    const { requestId: charged } = await admitChargedLease(store, { ...who, now }, 700);
    await store.admit(admission({ ...who, now: now + 1_000 }, { estimateNano: 5 }));
    const early = await settleOne(store, who, now + 2_000);
    // Within its lifetime a settlement marker still refuses the same id.
    const again = settlement({ ...who, now: now + lifetime }, { requestId: early, costNano: 25 });
    expect(await store.settle(again)).toEqual({ applied: false });
    const late = await settleOne(store, who, now + 2_000 + lifetime + 1);
    await store.close();
    const ns = await readStoredNamespace(dataDir, who.namespace);
    expect([...ns.settled.keys()]).toEqual([late]);
    // The charge marker outlives both, and still refuses a late settlement after a reload.
    expect([...ns.charged.keys()]).toEqual([charged]);
    const reopened = await createMemoryStore({ dataDir, settlementMarkerTtlMs: lifetime });
    const lateOfCharged = settlement(
      { ...who, now: now + 3 * 24 * 3_600_000 },
      { requestId: charged, costNano: 300 },
    );
    expect(await reopened.settle(lateOfCharged)).toEqual({ applied: false });
    await reopened.close();
  });

  it('drops the week of settlement markers of a file written before the two lifetimes', async () => {
    const dataDir = dataFolder();
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    const who = await tenant(store);
    const now = Date.now();
    const requestId = await settleOne(store, who, now);
    await store.close();
    const file = join(dataDir, MEMORY_STORE_FILE);
    expect([...(await readStoredNamespace(dataDir, who.namespace)).settled.keys()]).toEqual([
      requestId,
    ]);
    // As written before: one `settled` map of 7-day markers, no `charged` map, no marker journal.
    editStoredNamespace(file, who.namespace, (fields) => {
      delete fields.charged;
      fields.settled = { $map: [[requestId, now + LEASE_CHARGE_MARKER_TTL_MS]] };
    });
    rmSync(join(dataDir, SETTLED_MARKERS_FOLDER), { recursive: true });
    const reopened = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    expect((await reopened.accountCounters(who.namespace)).spentNano).toBe(25);
    await reopened.close();
    const rewritten = await readStoredNamespace(dataDir, who.namespace);
    expect([...rewritten.settled.keys()]).toEqual([]);
    expect([...rewritten.charged.keys()]).toEqual([]);
  });
});
