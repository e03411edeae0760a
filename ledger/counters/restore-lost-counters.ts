/**
 * Restores the spend counters a store lost (Redis flushed or replaced, the memory store's file
 * deleted) from the ledger, namespace by namespace, while admission refuses the namespace's calls
 * (`TG_COUNTERS_RESTORING`). A namespace is restored only once its usage stream is drained into the
 * ledger, and the write-back applies only if no record was appended since the ledger was read
 * (store `restoreCounters`), so the counters equal what they were plus every charge since.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter, Gauge, type Registry } from 'prom-client';
import type {
  CounterRestoreStore,
  PolicyReader,
  RestoredBudgets,
  RestoredKeyCounters,
} from '../../store/store.js';
import { rebuildBudgetCounters } from './rebuild-budget-counters.js';

/**
 * The restore's store; with `getAccount`, an account with a plan or member limits gets those
 * windows back too (rebuild-budget-counters.ts).
 */
export type RestoreStore = CounterRestoreStore & Partial<Pick<PolicyReader, 'getAccount'>>;

async function rebuildBudgets(
  db: LedgerQueryable,
  store: RestoreStore,
  request: { namespace: string; now: number; timeZone: string },
): Promise<RestoredBudgets | undefined> {
  const account = await store.getAccount?.(request.namespace);
  if (account == null || (account.plan === undefined && account.memberLimits === undefined)) {
    return undefined;
  }
  return rebuildBudgetCounters(db, {
    namespace: request.namespace,
    now: request.now,
    timeZone: account.timeZone ?? request.timeZone,
    plan: account.plan !== undefined,
    members: account.memberLimits !== undefined,
  });
}
import type { LedgerQueryable } from '../ledger-database.js';
import { rebuildNamespaceCounters, type RebuiltKeyCounters } from './rebuild-namespace-counters.js';

/** `waiting`: records of the namespace are still in its stream (the recorder drains them first). */
export type NamespaceRestoreResult = 'restored' | 'present' | 'moved' | 'waiting';

function restoredKey(key: RebuiltKeyCounters): RestoredKeyCounters {
  return {
    keyUid: key.keyUid,
    usedNano: key.usedNano,
    windows: key.windows.flatMap((window) =>
      window.last === null
        ? []
        : [{ name: window.name, usedNano: window.last.usedNano, end: window.last.end }],
    ),
    lastUsedTime: key.lastUsedTime,
    lastQuotaResetToken: key.lastQuotaResetToken,
  };
}

export async function restoreNamespaceCounters(
  db: LedgerQueryable,
  store: RestoreStore,
  request: { namespace: string; now: number; timeZone?: string },
): Promise<NamespaceRestoreResult> {
  const position = await store.usageStreamPosition(request.namespace);
  if (position.waiting > 0) return 'waiting';
  const rebuilt = await rebuildNamespaceCounters(db, request);
  const budgets = await rebuildBudgets(db, store, {
    namespace: request.namespace,
    now: request.now,
    timeZone: request.timeZone ?? 'UTC',
  });
  return store.restoreCounters({
    namespace: request.namespace,
    streamLastId: position.lastId,
    accountSpentNano: rebuilt.accountSpentNano,
    keys: rebuilt.keys.map(restoredKey),
    ...(budgets === undefined ? {} : { budgets }),
  });
}

export interface CounterRestorerOptions {
  store: RestoreStore;
  /** The calendar windows' time zone of accounts without `timeZone` (default UTC). */
  timeZone?: string;
  db: LedgerQueryable;
  registry: Registry;
  /** How often the store is asked for namespaces to restore (default 500 ms). */
  everyMs?: number;
  /** How often every account is checked, not only those queued (default 60 s). */
  scanEveryMs?: number;
  clock?: () => number;
  onRestored?: (namespace: string) => void;
  onError?: (error: unknown) => void;
}

export interface CounterRestorer {
  /** One round now: resolves to the namespaces restored. */
  runOnce(): Promise<string[]>;
  stop(): Promise<void>;
}

function createRestoreMetrics(registry: Registry) {
  const registers = [registry];
  return {
    waiting: new Gauge({
      name: 'tollgate_recorder_counters_restoring',
      help: 'Namespaces whose spend counters the store lost and that wait for their restore.',
      registers,
    }),
    restored: new Counter({
      name: 'tollgate_recorder_counter_restores_total',
      help: 'Namespaces whose spend counters were restored from the ledger.',
      registers,
    }),
    failures: new Counter({
      name: 'tollgate_recorder_counter_restore_failures_total',
      help: 'Failed rounds of the counter restore (each is retried).',
      registers,
    }),
  };
}

export function runCounterRestorer(options: CounterRestorerOptions): CounterRestorer {
  const clock = options.clock ?? Date.now;
  const metrics = createRestoreMetrics(options.registry);
  const stopping = new AbortController();
  let nextScan = 0;
  let running: Promise<string[]> = Promise.resolve([]);

  async function round(): Promise<string[]> {
    const now = clock();
    const scan = now >= nextScan;
    if (scan) nextScan = now + (options.scanEveryMs ?? 60_000);
    const namespaces = await options.store.namespacesToRestore({ scan });
    const restored: string[] = [];
    let left = namespaces.length;
    for (const namespace of namespaces) {
      const result = await restoreNamespaceCounters(options.db, options.store, {
        namespace,
        now: clock(),
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      });
      if (result === 'restored' || result === 'present') left -= 1;
      if (result === 'restored') {
        restored.push(namespace);
        metrics.restored.inc();
        options.onRestored?.(namespace);
      }
    }
    metrics.waiting.set(left);
    return restored;
  }

  function runOnce(): Promise<string[]> {
    running = running.then(round).catch((error: unknown) => {
      metrics.failures.inc();
      options.onError?.(error);
      return [];
    });
    return running;
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      await runOnce();
      await sleep(options.everyMs ?? 500, undefined, { signal: stopping.signal }).catch(
        () => undefined,
      );
    }
  }

  const done = loop();
  return {
    runOnce,
    stop: async () => {
      stopping.abort();
      await done;
      await running;
    },
  };
}
