/**
 * The store contract against the memory store, plain and reloaded from disk before every call,
 * plus its persistence: atomic file, debounced writes, reload on start.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import {
  createMemoryStore,
  MEMORY_CAPTURES_FILE,
  MEMORY_STORE_FILE,
} from '../../../store/memory-store.js';
import type { Store } from '../../../store/store.js';
import { StoreUnavailableError } from '../../../store/store.js';
import type { StoreUnderTest } from './store-under-test.js';
import { describeStoreContract } from './describe-store-contract.js';
import { capturedCall, describeCaptureBound } from './describe-capture-contract.js';
import { SETTLED_MARKERS_FOLDER } from '../../../store/settled-marker-journal.js';
import { editStoredNamespace } from './memory-store-file.js';
import { admission, settlement, tenant } from './store-fixtures.js';

const folders: string[] = [];
function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-memory-store-'));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A store that closes (persists) and reopens (reloads) the memory store from its data folder
 * before every call, one call at a time, so every piece of state must survive the file.
 */
async function reloadingStore(dataDir: string): Promise<Store> {
  let current = await createMemoryStore({ dataDir });
  let queue: Promise<unknown> = Promise.resolve();
  const wrapper: Record<string, unknown> = { kind: 'memory' };
  for (const name of Object.keys(current)) {
    if (name === 'kind') continue;
    wrapper[name] = (...args: unknown[]) => {
      const next = queue.then(async () => {
        await current.close();
        if (name === 'close') return undefined;
        current = await createMemoryStore({ dataDir });
        const method = Reflect.get(current, name) as (...values: unknown[]) => Promise<unknown>;
        return method.apply(current, args);
      });
      queue = next.catch(() => undefined);
      return next;
    };
  }
  return wrapper as unknown as Store;
}

/** A memory store on a data folder; the marker is dropped by closing, editing the file, reopening. */
async function memoryStoreUnderTest(
  open: (dataDir: string) => Promise<Store>,
): Promise<StoreUnderTest> {
  const dataDir = dataFolder();
  const file = join(dataDir, MEMORY_STORE_FILE);
  const underTest = (store: Store): StoreUnderTest => ({
    store,
    dropCountersMarker: async (namespace) => {
      await store.close();
      // As stores before the flag wrote the namespace.
      editStoredNamespace(file, namespace, (fields) => {
        delete fields.countersPresent;
      });
      return underTest(await open(dataDir));
    },
  });
  return underTest(await open(dataDir));
}

// Written only on close (the plain store's state stays in memory between calls).
describeStoreContract('memory', () =>
  memoryStoreUnderTest((dataDir) => createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 })),
);
describeStoreContract('memory reloaded from disk before every call', () =>
  memoryStoreUnderTest(reloadingStore),
);
describeCaptureBound('memory', ({ queueLimit, queueBytes }) =>
  createMemoryStore({
    dataDir: dataFolder(),
    captureQueueLimit: queueLimit,
    ...(queueBytes === undefined ? {} : { captureQueueBytes: queueBytes }),
  }),
);

describe('memory store persistence', () => {
  it('writes the file atomically after a settlement (debounced) and reloads it', async () => {
    const dataDir = dataFolder();
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 20 });
    const who = await tenant(store);
    const now = Date.now();
    const request = admission({ ...who, now }, { estimateNano: 40 });
    await store.admit(request);
    await store.settle(settlement({ ...who, now }, { requestId: request.requestId, costNano: 25 }));
    const file = join(dataDir, MEMORY_STORE_FILE);
    for (
      let attempt = 0;
      attempt < 100 && !readdirSync(dataDir).includes(MEMORY_STORE_FILE);
      attempt++
    ) {
      await sleep(20);
    }
    expect(readFileSync(file, 'utf8')).toContain(request.requestId);
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // The process "dies" without close(): the debounced write is what survives.
    const reopened = await createMemoryStore({ dataDir });
    expect((await reopened.keyCounters(who.namespace, who.keyUid, now)).usedNano).toBe(25);
    expect(await reopened.accountCounters(who.namespace)).toEqual({
      spentNano: 25,
      reservedNano: 0,
    });
    await store.close();
    await reopened.close();
  });

  it('writes on close, refuses calls after close, and keeps no file without a data folder', async () => {
    const dataDir = dataFolder();
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 60_000 });
    const who = await tenant(store);
    await store.settle(settlement({ ...who, now: Date.now() }, { costNano: 9 }));
    expect(readdirSync(dataDir)).toEqual([]);
    await store.close();
    expect(readdirSync(dataDir).sort()).toEqual([SETTLED_MARKERS_FOLDER, MEMORY_STORE_FILE]);
    await expect(store.ping()).rejects.toSatisfy((error) => StoreUnavailableError.is(error));
    const reopened = await createMemoryStore({ dataDir });
    expect((await reopened.accountCounters(who.namespace)).spentNano).toBe(9);
    await reopened.close();
    const volatile = await createStore({});
    expect(volatile.kind).toBe('memory');
    await volatile.putAccount('x', {
      digest: 'd',
      uid: 'u',
      namespace: 'x',
      creditNano: null,
      maxConcurrent: 0,
    });
    await volatile.close();
    const again = await createStore({});
    expect(await again.getAccount('x')).toBeNull();
    await again.close();
  });

  it('keeps store.json the size of its keys, not of its traffic: markers go to the journal', async () => {
    const dataDir = dataFolder();
    const file = join(dataDir, MEMORY_STORE_FILE);
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    const who = await tenant(store);
    const now = Date.now();
    const settleMany = async (on: Store, count: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let index = 0; index < count; index++) {
        const request = settlement({ ...who, now }, { costNano: 1 });
        await on.settle(request);
        ids.push(request.requestId);
      }
      return ids;
    };
    const [first] = await settleMany(store, 10);
    await store.close();
    const textAfterTen = readFileSync(file, 'utf8');
    const reopened = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    await settleMany(reopened, 2_000);
    await reopened.close();
    const journalLines = readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER))
      .map((name) => readFileSync(join(dataDir, SETTLED_MARKERS_FOLDER, name), 'utf8'))
      .join('')
      .split('\n')
      .filter((line) => line !== '');
    expect(journalLines).toHaveLength(2_010);
    // Without a recorder here every record stays queued in the file; the rest must not grow.
    const withoutQueue = (text: string): number =>
      JSON.stringify({ ...(JSON.parse(text) as object), queue: [] }).length;
    expect(withoutQueue(readFileSync(file, 'utf8'))).toBeLessThan(withoutQueue(textAfterTen) + 200);
    // The first call's marker came back from the journal: its retry is refused after a restart.
    const again = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    const retry = settlement({ ...who, now }, { requestId: first ?? '', costNano: 1 });
    expect(await again.settle(retry)).toEqual({ applied: false });
    expect((await again.accountCounters(who.namespace)).spentNano).toBe(2_010);
    await again.close();
  });

  it('keeps captures out of store.json: their own file, written only when they change', async () => {
    const dataDir = dataFolder();
    const stateFile = join(dataDir, MEMORY_STORE_FILE);
    const capturesFile = join(dataDir, MEMORY_CAPTURES_FILE);
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 10 });
    const who = await tenant(store);
    const calls = [capturedCall(), capturedCall()];
    for (const call of calls) await store.handOffCapture(call);
    await store.close();
    expect(readFileSync(stateFile, 'utf8')).not.toContain(calls[0]!.requestId);
    expect(readFileSync(capturesFile, 'utf8')).toContain(calls[1]!.requestId);
    // A change of the state alone leaves the captures file as it is.
    const reopened = await createMemoryStore({ dataDir, persistDebounceMs: 10 });
    writeFileSync(capturesFile, readFileSync(capturesFile, 'utf8') + ' ');
    const untouched = readFileSync(capturesFile, 'utf8');
    await reopened.settle(settlement({ ...who, now: Date.now() }, { costNano: 3 }));
    await sleep(100);
    expect(readFileSync(capturesFile, 'utf8')).toBe(untouched);
    const pending = await reopened.pendingCaptures(10);
    expect(pending.map((capture) => capture.call)).toEqual(calls);
    await reopened.ackCaptures([pending[0]!.id]);
    await reopened.close();
    expect(readFileSync(capturesFile, 'utf8')).not.toContain(calls[0]!.requestId);
    const again = await createMemoryStore({ dataDir });
    expect((await again.pendingCaptures(10)).map((capture) => capture.call)).toEqual([calls[1]]);
    await again.close();
  });

  it('moves the captures of a store.json written before the captures file into it', async () => {
    const dataDir = dataFolder();
    const stateFile = join(dataDir, MEMORY_STORE_FILE);
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    await tenant(store);
    await store.close();
    const call = capturedCall();
    const stored = JSON.parse(readFileSync(stateFile, 'utf8')) as object;
    const captures = [{ id: '1-1', body: JSON.stringify(call) }];
    writeFileSync(stateFile, JSON.stringify({ ...stored, captures }));
    const upgraded = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    expect((await upgraded.pendingCaptures(10)).map((capture) => capture.call)).toEqual([call]);
    await upgraded.close();
    expect(readFileSync(stateFile, 'utf8')).not.toContain(call.requestId);
    expect(readFileSync(join(dataDir, MEMORY_CAPTURES_FILE), 'utf8')).toContain(call.requestId);
  });

  it('moves the markers of a file written before the journal into it', async () => {
    const dataDir = dataFolder();
    const file = join(dataDir, MEMORY_STORE_FILE);
    const store = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    const who = await tenant(store);
    const now = Date.now();
    const settled = settlement({ ...who, now }, { costNano: 7 });
    await store.settle(settled);
    await store.close();
    // As a version 2 store wrote it: the markers inside the file, no journal.
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { version: number };
    writeFileSync(file, JSON.stringify({ ...stored, version: 2 }));
    editStoredNamespace(file, who.namespace, (fields) => {
      fields.settled = { $map: [[settled.requestId, now + 900_000]] };
    });
    rmSync(join(dataDir, SETTLED_MARKERS_FOLDER), { recursive: true });
    const upgraded = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    expect(await upgraded.settle(settled)).toEqual({ applied: false });
    await upgraded.close();
    expect(readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER))).toHaveLength(1);
    const again = await createMemoryStore({ dataDir, persistDebounceMs: 3_600_000 });
    expect(await again.settle(settled)).toEqual({ applied: false });
    expect((await again.accountCounters(who.namespace)).spentNano).toBe(7);
    await again.close();
  });
});

describe('memory store leases', () => {
  it('releases each lease when it ends, however the leases in flight were set since the last pass', async () => {
    const store = await createMemoryStore();
    const who = await tenant(store);
    const now = Date.now();
    const reserved = async (at: number) =>
      (await store.keyCounters(who.namespace, who.keyUid, at)).reservedNano;
    // A long lease, then a pass that finds its end the earliest.
    await store.admit(admission({ ...who, now }, { estimateNano: 1, leaseMs: 60_000 }));
    expect(await reserved(now + 1)).toBe(1);
    // A shorter lease admitted since, and one set anew to end sooner (admitted again).
    await store.admit(admission({ ...who, now }, { estimateNano: 10, leaseMs: 5_000 }));
    const again = admission({ ...who, now }, { estimateNano: 100, leaseMs: 30_000 });
    await store.admit(again);
    await store.admit({ ...again, leaseMs: 2_000 });
    expect(await reserved(now + 1)).toBe(111);
    expect(await reserved(now + 2_000)).toBe(11);
    expect(await reserved(now + 5_000)).toBe(1);
    expect(await reserved(now + 59_999)).toBe(1);
    expect(await reserved(now + 60_000)).toBe(0);
    await store.close();
  });
});
