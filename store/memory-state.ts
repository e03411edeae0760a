/**
 * The in-process store's state: the same data the Redis layout holds, in Maps, and its JSON form
 * for the data folder (Maps are written as entry lists, so no key can touch a prototype).
 */
import type {
  AccountPolicy,
  GroupPolicy,
  KeyPolicy,
  LeaseCharge,
  UpstreamPolicy,
  WindowName,
} from './store.js';
import type { DailyAggregate, UsageRecord } from './usage-records.js';

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
  /** Charged as an estimated record if the lease ends unsettled (`accountUid` as admitted). */
  charge?: { accountUid: string; lease: LeaseCharge };
}

export interface DailyEntry {
  aggregate: DailyAggregate;
  /** Time of the last record added, for pruning. */
  lastTime: number;
}

export interface NamespaceState {
  account: AccountPolicy | null;
  accountSpent: number;
  accountReserved: number;
  keys: Map<string, KeyCounterState>;
  inFlight: Map<string, InFlightEntry>;
  /** Settled request id -> time the marker expires. */
  settled: Map<string, number>;
  records: Map<string, UsageRecord>;
  /** `<keyUid> TAB <day> TAB <model>` -> aggregate. */
  keyDaily: Map<string, DailyEntry>;
  /** `<day> TAB <model>` -> aggregate. */
  accountDaily: Map<string, DailyEntry>;
}

export interface MemoryState {
  keyPolicies: Map<string, KeyPolicy>;
  groups: Map<string, GroupPolicy>;
  upstreams: Map<string, UpstreamPolicy>;
  /** Upstream name -> request id -> lease end. */
  upstreamSlots: Map<string, Map<string, number>>;
  namespaces: Map<string, NamespaceState>;
}

export function createEmptyState(): MemoryState {
  return {
    keyPolicies: new Map(),
    groups: new Map(),
    upstreams: new Map(),
    upstreamSlots: new Map(),
    namespaces: new Map(),
  };
}

export function namespaceState(state: MemoryState, namespace: string): NamespaceState {
  let found = state.namespaces.get(namespace);
  if (found === undefined) {
    found = {
      account: null,
      accountSpent: 0,
      accountReserved: 0,
      keys: new Map(),
      inFlight: new Map(),
      settled: new Map(),
      records: new Map(),
      keyDaily: new Map(),
      accountDaily: new Map(),
    };
    state.namespaces.set(namespace, found);
  }
  return found;
}

const MAP_TAG = '$map';

export function serializeState(state: MemoryState): string {
  return JSON.stringify({ version: 1, state }, (_key, value: unknown) =>
    value instanceof Map ? { [MAP_TAG]: [...value.entries()] } : value,
  );
}

export function deserializeState(text: string): MemoryState {
  const parsed = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && MAP_TAG in value) {
      return new Map((value as { [MAP_TAG]: [string, unknown][] })[MAP_TAG]);
    }
    return value;
  }) as { version: number; state: MemoryState };
  if (parsed.version !== 1) throw new Error(`unknown memory store version ${parsed.version}`);
  return parsed.state;
}
