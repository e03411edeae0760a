/**
 * The counter restore on the in-process state (memory-store.ts), with the semantics of
 * redis-counter-restore.ts: the stream position is the count of records appended, the waiting
 * ones are those still in the usage record queue.
 */
import type { MemoryState, NamespaceState, UsageRecordQueue } from './memory-state.js';
import type { MemberState, WindowState } from './budget-windows.js';
import { namespaceState } from './memory-state.js';
import type {
  AccountPolicy,
  CounterRestore,
  CounterRestoreResult,
  UsageStreamPosition,
} from './store.js';

/** putAccount's decision (redis-policy-store.ts): new counters are whole, lost ones wait. */
export function putAccountInState(
  state: MemoryState,
  request: { namespace: string; policy: AccountPolicy; programmedBefore: boolean },
): void {
  const ns = namespaceState(state, request.namespace);
  if (!ns.countersPresent) {
    if (request.programmedBefore) state.restoreQueue.add(request.namespace);
    else ns.countersPresent = true;
  }
  ns.account = structuredClone(request.policy);
}

export function namespacesToRestoreInState(state: MemoryState, scan: boolean): string[] {
  const missing = new Set<string>();
  for (const namespace of state.restoreQueue) {
    if (state.namespaces.get(namespace)?.countersPresent === true) {
      state.restoreQueue.delete(namespace);
    } else missing.add(namespace);
  }
  if (scan) {
    for (const ns of state.namespaces.values()) {
      if (ns.account !== null && !ns.countersPresent) missing.add(ns.name);
    }
  }
  return [...missing];
}

export function streamPositionInState(
  state: MemoryState,
  request: { namespace: string; queue: UsageRecordQueue },
): UsageStreamPosition {
  const appended = state.namespaces.get(request.namespace)?.appended ?? 0;
  const waiting = request.queue
    .snapshot()
    .filter((entry) => entry.source === request.namespace).length;
  return { waiting, lastId: positionId(appended) };
}

function positionId(appended: number): string {
  return appended === 0 ? '0-0' : `${appended}-0`;
}

function writeRestored(ns: NamespaceState, restore: CounterRestore): void {
  for (const key of restore.keys) {
    const current = ns.keys.get(key.keyUid);
    ns.keys.set(key.keyUid, {
      used: key.usedNano,
      reserved: current?.reserved ?? 0,
      inFlight: current?.inFlight ?? 0,
      windows: Object.fromEntries(
        key.windows.map((window) => [window.name, { used: window.usedNano, end: window.end }]),
      ),
      lastUsed: key.lastUsedTime,
      resetToken: key.lastQuotaResetToken,
    });
  }
  ns.accountSpent = restore.accountSpentNano;
  if (restore.budgets !== undefined) {
    const members = new Map<string, MemberState>();
    for (const member of restore.budgets.members) {
      members.set(member.owner, {
        reserved: ns.budgets?.members.get(member.owner)?.reserved ?? 0,
        windows: windowStates(member.windows),
      });
    }
    ns.budgets = { plan: windowStates(restore.budgets.plan), members };
  }
  ns.countersPresent = true;
}

function windowStates<N extends string>(
  windows: readonly { name: N; usedNano: number; end: number }[],
): Partial<Record<N, WindowState>> {
  const states: Partial<Record<N, WindowState>> = {};
  for (const window of windows) states[window.name] = { used: window.usedNano, end: window.end };
  return states;
}

export function restoreCountersInState(
  state: MemoryState,
  request: { restore: CounterRestore; queue: UsageRecordQueue },
): CounterRestoreResult {
  const { restore } = request;
  const ns = namespaceState(state, restore.namespace);
  let result: CounterRestoreResult = 'present';
  if (!ns.countersPresent) {
    const position = streamPositionInState(state, {
      namespace: restore.namespace,
      queue: request.queue,
    });
    if (position.waiting > 0 || position.lastId !== restore.streamLastId) return 'moved';
    writeRestored(ns, restore);
    result = 'restored';
  }
  state.restoreQueue.delete(restore.namespace);
  return result;
}
