/**
 * The in-process store's state: the same data the Redis layout holds, in Maps, and its JSON form
 * for the data folder (Maps and Sets are written as entry lists, so no key can touch a prototype),
 * with the usage records still waiting for the recorder. The file is rewritten after changes, so
 * it holds only what must outlive a restart: the settled markers of the last minutes
 * (settled-markers.ts), not a week of them. Files written before the two marker lifetimes hold 7
 * days of markers of every settlement; those are dropped when read, since only the process that
 * wrote them could have settled those requests again.
 */
import type { BudgetCharge, BudgetState } from './budget-windows.js';
import type { UpstreamHealthMaps } from './memory-upstream-health.js';
import type {
  AccountPolicy,
  GroupPolicy,
  KeyPolicy,
  LeaseCharge,
  LeaseProgress,
  UpstreamPolicy,
  WindowName,
} from './store.js';
import type { QueuedCapture } from './memory-capture-queue.js';

/** An entry of the usage record queue (the memory form of the per-account usage streams). */ import type { NotificationDelivery } from './notification-deliveries.js';

export interface QueuedUsageEntry {
  /** The namespace whose stream it belongs to. */
  source: string;
  id: string;
  body: string;
}

/**
 * The queue the memory store appends settled records to, read by the in-process recorder
 * (store/memory-usage-record-source.ts implements it); persisted with the state.
 */
export interface UsageRecordQueue {
  append(source: string, body: string): string;
  snapshot(): QueuedUsageEntry[];
  /** `snapshot`'s entries, each as `JSON.stringify` encodes it (memory-usage-record-source.ts). */
  snapshotJson(): string[];
  restore(entries: readonly QueuedUsageEntry[]): void;
}

export interface KeyCounterState {
  used: number;
  reserved: number;
  inFlight: number;
  windows: Partial<Record<WindowName, { used: number; end: number }>>;
  lastUsed: number | null;
  resetToken: string | null;
}

export interface InFlightEntry {
  keyUid: string;
  estimateNano: number;
  leaseUntil: number;
  /** The plan and member windows the request counts toward (memory-budgets.ts). */
  budget?: BudgetCharge;
  /**
   * Charged as an estimated record if the lease ends unsettled (`accountUid` as admitted): the
   * reservation, or the latest progress a renewal brought (its record replaces the lease's).
   */
  charge?: {
    accountUid: string;
    lease: LeaseCharge;
    progress?: Pick<LeaseProgress, 'deliveredNano' | 'chargeNano'>;
  };
}

export interface NamespaceState {
  /** The namespace (also the source of its records in the usage record queue). */
  name: string;
  account: AccountPolicy | null;
  accountSpent: number;
  accountReserved: number;
  keys: Map<string, KeyCounterState>;
  inFlight: Map<string, InFlightEntry>;
  /**
   * Settled request id -> time the marker expires (settled-markers.ts). On disk in the marker
   * journal (settled-marker-journal.ts), not in `store.json`.
   */
  settled: Map<string, number>;
  /** Settlement markers expiring at or before this were dropped: the journal's still hold them. */
  settledPrunedBefore: number;
  /** Request id whose lease was charged as estimated -> time the marker expires. */
  charged: Map<string, number>;
  /** False until the account is first put (new) or its counters are restored from the ledger. */
  countersPresent: boolean;
  /** Records appended to the namespace's stream so far: the stream's last id. */
  appended: number;
  /** Plan windows and member budgets; absent until the account has either. */
  budgets?: BudgetState;
}

export interface MemoryState extends UpstreamHealthMaps {
  keyPolicies: Map<string, KeyPolicy>;
  groups: Map<string, GroupPolicy>;
  upstreams: Map<string, UpstreamPolicy>;
  /** Upstream name -> request id -> lease end. */
  upstreamSlots: Map<string, Map<string, number>>;
  namespaces: Map<string, NamespaceState>;
  /** Namespaces whose counters were lost and wait for the recorder's restore. */
  restoreQueue: Set<string>;
  /** The generation marker of the last full program of the policy cache; null: none since. */
  policyMarker: string | null;
  /** The full program of the policy cache in progress, if any. */
  policyReload: string | null;
  /** Notification deliveries (memory-notification-deliveries.ts); absent until the first. */
  notifications?: NotificationMaps;
}

export interface NotificationMaps {
  /** Event id -> the delivery and when its claim ends. */
  documents: Map<string, { delivery: NotificationDelivery; expiresAt: number }>;
  /** Event id -> when its next attempt is due (or its lease ends). */
  due: Map<string, number>;
  /** Notifier -> its newest event ids, newest first. */
  histories: Map<string, string[]>;
  /** `<notifier>|Delivered` and `|Failed` -> count. */
  counts: Map<string, number>;
}

export function createEmptyState(): MemoryState {
  return {
    keyPolicies: new Map(),
    groups: new Map(),
    upstreams: new Map(),
    upstreamSlots: new Map(),
    upstreamHealth: new Map(),
    upstreamRequests: new Map(),
    sessions: new Map(),
    namespaces: new Map(),
    restoreQueue: new Set(),
    policyMarker: null,
    policyReload: null,
  };
}

export function namespaceState(state: MemoryState, namespace: string): NamespaceState {
  let found = state.namespaces.get(namespace);
  if (found === undefined) {
    found = {
      name: namespace,
      account: null,
      accountSpent: 0,
      accountReserved: 0,
      keys: new Map(),
      inFlight: new Map(),
      settled: new Map(),
      settledPrunedBefore: 0,
      charged: new Map(),
      countersPresent: false,
      appended: 0,
    };
    state.namespaces.set(namespace, found);
  }
  return found;
}

const MAP_TAG = '$map';
const SET_TAG = '$set';
/** 3: settlement markers in the journal; 2: inside the file; 1: records in the file. */
const VERSION = 3;

interface StoredState {
  version: number;
  state: MemoryState;
  queue?: QueuedUsageEntry[];
  /** Captured bodies waiting for the recorder (memory-capture-queue.ts). */
  captures?: QueuedCapture[];
}

const NO_MARKERS: ReadonlyMap<string, number> = new Map();

/** The file's text: the state with every namespace's settlement markers left to the journal. */
export function serializeState(
  state: MemoryState,
  queue: readonly QueuedUsageEntry[],
  captures: readonly QueuedCapture[] = [],
): string {
  const namespaces = new Map<string, NamespaceState>();
  for (const [name, ns] of state.namespaces) {
    namespaces.set(name, { ...ns, settled: NO_MARKERS as Map<string, number> });
  }
  const stored: StoredState = {
    version: VERSION,
    state: { ...state, namespaces },
    queue: [...queue],
    ...(captures.length > 0 ? { captures: [...captures] } : {}),
  };
  return JSON.stringify(stored, (_key, value: unknown) => {
    if (value instanceof Map) return { [MAP_TAG]: [...value.entries()] };
    if (value instanceof Set) return { [SET_TAG]: [...value.values()] };
    return value;
  });
}

/** How `serializeState` ends with an empty queue: the queue is the last member it writes. */
const EMPTY_QUEUE_TAIL = ',"queue":[]}';

/** `serializeState(state, [])`'s text with the queue's entries, each already JSON, put in its queue. */
function fillQueue(emptyQueueText: string, entries: readonly string[]): string {
  if (entries.length === 0) return emptyQueueText;
  const head = emptyQueueText.slice(0, -EMPTY_QUEUE_TAIL.length);
  return `${head},"queue":[${entries.join(',')}]}`;
}

/**
 * `serializeState`'s text from the queue's entries already in JSON (`snapshotJson`): the same text,
 * joined instead of encoded, so a record waiting for the ledger is encoded once however many
 * writes of the store it waits through.
 */
export function serializeStateWithQueueJson(
  state: MemoryState,
  entries: readonly string[],
): string {
  return fillQueue(serializeState(state, []), entries);
}

/**
 * Version 1 files (before the usage streams) held records and daily aggregates in the state: they
 * are dropped (they were never written to a ledger), and the counters they held count as whole.
 */
function upgradeVersionOne(state: MemoryState): void {
  state.restoreQueue = new Set();
  for (const [name, ns] of state.namespaces) {
    const old = ns as NamespaceState & Record<string, unknown>;
    ns.name = name;
    delete old.records;
    delete old.keyDaily;
    delete old.accountDaily;
    ns.countersPresent = true;
    ns.appended = 0;
  }
}

/**
 * A namespace written without `countersPresent` (a store before the marker) holding counters was
 * never lost: whole, as on Redis (counters-whole.ts). One that was never charged has nothing to
 * lose: restored from the ledger if its account was programmed before.
 */
function markUnmarkedCounters(state: MemoryState): void {
  for (const ns of state.namespaces.values()) {
    if (typeof (ns as Partial<NamespaceState>).countersPresent === 'boolean') continue;
    ns.countersPresent =
      ns.accountSpent !== 0 || [...ns.keys.values()].some((key) => key.used !== 0);
  }
}

/** What `store.json` held, before the marker journal is read (read-memory-store-folder.ts). */
export interface DeserializedState {
  state: MemoryState;
  queue: QueuedUsageEntry[];
  captures: QueuedCapture[];
  /** The file's version: below 3, the settlement markers were inside it. */
  version: number;
  /**
   * Namespaces written by a store before the two marker lifetimes: their markers (a week of every
   * settlement) were dropped, and none of the journal's apply to them.
   */
  beforeLifetimes: Set<string>;
}

export function deserializeState(text: string): DeserializedState {
  const parsed = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && MAP_TAG in value) {
      return new Map((value as { [MAP_TAG]: [string, unknown][] })[MAP_TAG]);
    }
    if (typeof value === 'object' && value !== null && SET_TAG in value) {
      return new Set((value as { [SET_TAG]: unknown[] })[SET_TAG]);
    }
    return value;
  }) as StoredState;
  if (parsed.version === 1) upgradeVersionOne(parsed.state);
  else if (parsed.version !== 2 && parsed.version !== VERSION) {
    throw new Error(`unknown memory store version ${parsed.version}`);
  }
  markUnmarkedCounters(parsed.state);
  const beforeLifetimes = new Set<string>();
  for (const [name, ns] of parsed.state.namespaces) {
    const older = ns as Partial<NamespaceState>;
    older.settledPrunedBefore ??= 0;
    if (older.charged !== undefined) continue;
    ns.settled = new Map();
    ns.charged = new Map();
    beforeLifetimes.add(name);
  }
  // Files written before upstream health and sticky sessions hold none.
  const older = parsed.state as Partial<UpstreamHealthMaps>;
  older.upstreamHealth ??= new Map();
  older.upstreamRequests ??= new Map();
  older.sessions ??= new Map();
  // Files written before the policy marker hold none: the operator programs the cache again.
  const unmarked = parsed.state as Partial<Pick<MemoryState, 'policyMarker' | 'policyReload'>>;
  unmarked.policyMarker ??= null;
  unmarked.policyReload ??= null;
  return {
    state: parsed.state,
    queue: parsed.queue ?? [],
    captures: parsed.captures ?? [],
    version: parsed.version,
    beforeLifetimes,
  };
}
