/**
 * The in-process store (local mode without Redis): the same contract and semantics as the Redis
 * store, synchronous inside so each call is atomic, persisted to `<dataDir>/store.json` (atomic
 * replace) shortly after changes and on `close()`, with the settlement markers appended to their
 * journal beside it (settled-marker-journal.ts) and the captures waiting for the recorder in a
 * file of their own (`captures.json`, replaced only when the capture queue changed), and reloaded
 * on start. Settled records go to a
 * usage record queue (the in-process recorder drains it into the ledger); the records still
 * queued are persisted with the state.
 */
import { readMemberCounters, readPlanWindows } from './memory-budgets.js';
import { createMemoryUpstreamHealth } from './memory-upstream-health-store.js';
import { createMemoryNotificationDeliveries } from './memory-notification-deliveries.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryRecordQueue } from './memory-usage-record-source.js';
import { MemoryCaptureQueue } from './memory-capture-queue.js';
import { DEFAULT_CAPTURE_QUEUE_BYTES, DEFAULT_CAPTURE_QUEUE_LIMIT } from './captured-call.js';
import {
  namespacesToRestoreInState,
  putAccountInState,
  restoreCountersInState,
  streamPositionInState,
} from './memory-counter-restore.js';
import type { UsageRecordQueue } from './memory-state.js';
import { createEmptyState, namespaceState, serializeStateWithQueueJson } from './memory-state.js';
import {
  admitInState,
  purgeExpired,
  readKeyCounters,
  renewLeaseInState,
  resetQuotaInState,
  settleInState,
  sweepExpiredInState,
  type MemorySpendContext,
} from './memory-spend.js';
import { writeFileAtomically } from './persist-json-file.js';
import {
  MEMORY_CAPTURES_FILE,
  MEMORY_STORE_FILE,
  readMemoryStoreFolder,
} from './read-memory-store-folder.js';
import { openSettledMarkerJournal, type SettledMarkerJournal } from './settled-marker-journal.js';
import { parsePendingRecord } from './read-pending-usage-records.js';
import type { SettledRecord } from './usage-records.js';
import type { Store } from './store.js';
import { StoreUnavailableError } from './store.js';
import { LEASE_CHARGE_MARKER_TTL_MS, MIN_SETTLEMENT_MARKER_TTL_MS } from './settled-markers.js';

export interface MemoryStoreOptions {
  /** Folder for `store.json`; no persistence when absent. */
  dataDir?: string;
  /** Delay between a change and its write (default 250 ms). */
  persistDebounceMs?: number;
  /** How long a settled request id is remembered (settled-markers.ts; default 15 minutes). */
  settlementMarkerTtlMs?: number;
  /**
   * Where settled records are appended (local mode passes the queue its recorder drains); a
   * queue of its own when absent.
   */
  recordQueue?: UsageRecordQueue;
  /** Captured bodies kept waiting for the recorder at most (default 10 000; oldest dropped). */
  captureQueueLimit?: number;
  /** Bytes of captured bodies' JSON kept waiting at most (default 64 MiB; oldest dropped). */
  captureQueueBytes?: number;
}

export { MEMORY_CAPTURES_FILE, MEMORY_STORE_FILE } from './read-memory-store-folder.js';

function pendingRecords(
  queue: UsageRecordQueue,
  request: { namespace: string; limit: number },
): SettledRecord[] {
  const records: SettledRecord[] = [];
  for (const entry of queue.snapshot()) {
    if (records.length >= request.limit) break;
    if (entry.source !== request.namespace) continue;
    const record = parsePendingRecord(entry.body);
    if (record !== null) records.push(record);
  }
  return records;
}

export async function createMemoryStore(options: MemoryStoreOptions = {}): Promise<Store> {
  const { dataDir } = options;
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  const loaded =
    dataDir === undefined
      ? {
          state: createEmptyState(),
          queue: [],
          captures: [],
          capturesInState: false,
          unjournaled: [],
        }
      : await readMemoryStoreFolder(dataDir);
  const { state } = loaded;
  const queue = options.recordQueue ?? new MemoryRecordQueue();
  queue.restore(loaded.queue);
  const captures = new MemoryCaptureQueue({
    limit: options.captureQueueLimit ?? DEFAULT_CAPTURE_QUEUE_LIMIT,
    bytes: options.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES,
  });
  captures.restore(loaded.captures);
  const journal = dataDir === undefined ? null : await openSettledMarkerJournal(dataDir);
  for (const marker of loaded.unjournaled) journal?.note(marker);
  const context: MemorySpendContext = {
    queue,
    settlementMarkerTtlMs: options.settlementMarkerTtlMs ?? MIN_SETTLEMENT_MARKER_TTL_MS,
    leaseChargeMarkerTtlMs: LEASE_CHARGE_MARKER_TTL_MS,
    ...(journal === null
      ? {}
      : {
          noteSettledMarker: (marker) => {
            journal.note(marker);
          },
        }),
  };
  const stateFile: PersistedFile = {
    name: MEMORY_STORE_FILE,
    serialize: () => serializeStateWithQueueJson(state, queue.snapshotJson()),
    dirty: false,
  };
  // Its own file: a change of the state never rewrites the captures, nor a capture the state.
  const capturesFile: PersistedFile = {
    name: MEMORY_CAPTURES_FILE,
    serialize: () => JSON.stringify(captures.snapshot()),
    dirty: false,
  };
  const persister = createPersister({
    folder: dataDir ?? null,
    journal,
    files: [stateFile, capturesFile],
    debounceMs: options.persistDebounceMs ?? 250,
  });
  // A file from before `captures.json` held the captures: both are written on the next write.
  if (loaded.capturesInState) capturesFile.dirty = stateFile.dirty = true;
  let closed = false;

  /** Runs one atomic change and schedules a write of the file it changed. */
  function change<T>(operation: () => T, file: PersistedFile = stateFile): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError('the memory store is closed'));
    const result = operation();
    persister.schedule(file);
    return Promise.resolve(result);
  }
  function read<T>(operation: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError('the memory store is closed'));
    return Promise.resolve(operation());
  }

  return {
    kind: 'memory',
    putKeyPolicy: (keyHash, policy) =>
      change(() => void state.keyPolicies.set(keyHash, structuredClone(policy))),
    putKeyPolicies: (entries) =>
      change(() => {
        for (const { keyHash, policy } of entries) {
          state.keyPolicies.set(keyHash, structuredClone(policy));
        }
      }),
    deleteKeyPolicy: (keyHash) => change(() => void state.keyPolicies.delete(keyHash)),
    listKeyPolicyDigests: () =>
      read(() => new Map([...state.keyPolicies].map(([hash, policy]) => [hash, policy.digest]))),
    getKeyPolicy: (keyHash) => read(() => structuredClone(state.keyPolicies.get(keyHash) ?? null)),
    putGroup: (policy) => change(() => void state.groups.set(policy.name, structuredClone(policy))),
    deleteGroup: (name) => change(() => void state.groups.delete(name)),
    getGroup: (name) => read(() => structuredClone(state.groups.get(name) ?? null)),
    putUpstream: (policy) =>
      change(() => void state.upstreams.set(policy.name, structuredClone(policy))),
    deleteUpstream: (name) => change(() => void state.upstreams.delete(name)),
    getUpstream: (name) => read(() => structuredClone(state.upstreams.get(name) ?? null)),
    putAccount: (namespace, policy, putOptions = {}) =>
      change(() => {
        const programmedBefore = putOptions.programmedBefore === true;
        putAccountInState(state, { namespace, policy, programmedBefore });
      }),
    deleteAccount: (namespace) =>
      change(() => {
        namespaceState(state, namespace).account = null;
      }),
    getAccount: (namespace) =>
      read(() => structuredClone(state.namespaces.get(namespace)?.account ?? null)),
    readPolicyMarker: () => read(() => state.policyMarker),
    beginPolicyReload: (generation) =>
      change(() => {
        state.policyReload = generation;
      }),
    commitPolicyReload: (generation) =>
      change(() => {
        if (state.policyReload !== generation) return false;
        state.policyMarker = generation;
        state.policyReload = null;
        return true;
      }),
    resetQuota: (namespace, keyUid, token) =>
      change(() =>
        resetQuotaInState(context, state, { namespace, keyUid, token, now: Date.now() }),
      ),
    deleteKeyCounters: (namespace, keyUid) =>
      change(() => void state.namespaces.get(namespace)?.keys.delete(keyUid)),
    admit: (request) => change(() => admitInState(context, state, request)),
    renewLease: (requests, untilMs) =>
      change(() => {
        for (const renewal of requests) renewLeaseInState(state, { renewal, untilMs });
      }),
    settle: (request) => change(() => ({ applied: settleInState(context, state, request) })),
    // One process holds the memory store, so there is no other replica to share the sweep with.
    sweepExpiredLeases: (request) =>
      change(() => ({
        swept: true,
        charged: sweepExpiredInState(context, state, request.now),
      })),
    acquireUpstreamSlot: (request) =>
      change(() => {
        const slots = state.upstreamSlots.get(request.upstream) ?? new Map<string, number>();
        state.upstreamSlots.set(request.upstream, slots);
        for (const [requestId, leaseUntil] of slots) {
          if (leaseUntil <= request.now) slots.delete(requestId);
        }
        const held = slots.has(request.requestId);
        if (!held && request.limit > 0 && slots.size >= request.limit) return false;
        slots.set(request.requestId, request.now + request.leaseMs);
        return true;
      }),
    releaseUpstreamSlot: (upstream, requestId) =>
      change(() => void state.upstreamSlots.get(upstream)?.delete(requestId)),
    ...createMemoryUpstreamHealth(state, change, read),
    ...createMemoryNotificationDeliveries(state, { change, read }),
    keyCounters: (namespace, keyUid, now) =>
      change(() => readKeyCounters(context, state, { namespace, keyUid, now })),
    accountCounters: (namespace) =>
      change(() => {
        const ns = namespaceState(state, namespace);
        const now = Date.now();
        purgeExpired(context, ns, now);
        const counters = { spentNano: ns.accountSpent, reservedNano: ns.accountReserved };
        // Plan windows only for an account that has had a plan charged (as on Redis).
        if (Object.keys(ns.budgets?.plan ?? {}).length === 0) return counters;
        return { ...counters, planWindows: readPlanWindows(ns, now) };
      }),
    memberCounters: (namespace, owner, now) =>
      read(() => readMemberCounters(state.namespaces.get(namespace), { owner, now })),
    accountInFlight: (namespace, now) =>
      read(() => {
        let count = 0;
        for (const entry of state.namespaces.get(namespace)?.inFlight.values() ?? []) {
          if (entry.leaseUntil > now) count += 1;
        }
        return count;
      }),
    pendingUsageRecords: (namespace, limit) =>
      read(() => pendingRecords(queue, { namespace, limit })),
    namespacesToRestore: ({ scan }) => change(() => namespacesToRestoreInState(state, scan)),
    usageStreamPosition: (namespace) =>
      read(() => streamPositionInState(state, { namespace, queue })),
    restoreCounters: (restore) => change(() => restoreCountersInState(state, { restore, queue })),
    handOffCapture: (call) => change(() => captures.append(call), capturesFile),
    // A read (the recorder polls it): an unreadable entry it drops is written with the next change.
    pendingCaptures: (limit) => read(() => captures.pending(limit)),
    ackCaptures: (ids) =>
      change(() => {
        captures.acknowledge(ids);
      }, capturesFile),
    ping: () => read(() => undefined),
    // The state lives in this process: nothing reconnects, and nothing is lost while it runs.
    onReconnect: () => () => undefined,
    close: async () => {
      if (closed) return;
      closed = true;
      await persister.flush();
    },
  };
}

interface Persister {
  schedule(file: PersistedFile): void;
  flush(): Promise<void>;
}

/** One file of the data folder, replaced whole when it changed. */
interface PersistedFile {
  name: string;
  serialize: () => string;
  /** Changed since its last write. */
  dirty: boolean;
}

interface PersisterOptions {
  /** The data folder; null: nothing is written. */
  folder: string | null;
  journal: SettledMarkerJournal | null;
  files: readonly PersistedFile[];
  debounceMs: number;
}

/**
 * Debounced, serialised writes: the markers set since the last write are appended to the journal,
 * then each file that changed replaces its copy: `store.json` (its size set by keys and accounts,
 * not by traffic) and, only when captures came or went, `captures.json` (held within the capture
 * queue's bounds).
 */
function createPersister(options: PersisterOptions): Persister {
  const { folder, journal, files, debounceMs } = options;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  function write(): Promise<void> {
    timer = null;
    const changed = files.filter((file) => file.dirty);
    if (folder === null || changed.length === 0) return writing;
    // Each file's content is taken now, written after the writes before it.
    const texts = changed.map((file) => {
      file.dirty = false;
      return { file, text: file.serialize() };
    });
    // A failed write does not stop the later ones (the failure is the caller's, once).
    writing = writing
      .catch(() => undefined)
      .then(async () => {
        await journal?.write(Date.now());
        for (const { file, text } of texts)
          await writeFileAtomically(join(folder, file.name), text);
      })
      .catch((error: unknown) => {
        for (const { file } of texts) file.dirty = true;
        throw error;
      });
    return writing;
  }
  return {
    schedule(file) {
      if (folder === null) return;
      file.dirty = true;
      if (timer !== null) return;
      timer = setTimeout(() => {
        write().catch(() => undefined);
      }, debounceMs);
      timer.unref();
    },
    async flush() {
      if (timer !== null) clearTimeout(timer);
      await write();
    },
  };
}
