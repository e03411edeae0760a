/**
 * The counter restore on Redis: which namespaces lost their counters, where their usage stream
 * stands, and the atomic write-back of the counters rebuilt from the ledger (the recorder calls
 * these; docs/ledger.md "Counters restored from the ledger").
 */
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import {
  COUNTERS_MARK_FIELDS,
  countersUnmarked,
  countersWhole,
  readCountersMarks,
} from './counters-whole.js';
import type { RunScript } from './define-store-scripts.js';
import { COUNTERS_PRESENT_FIELD, type RedisKeyNames } from './redis-key-names.js';
import type {
  CounterRestore,
  CounterRestoreResult,
  CounterRestoreStore,
  RestoredBudgets,
  RestoredKeyCounters,
} from './store.js';
import { MEMBER_WINDOWS, PLAN_WINDOWS } from './budget-windows.js';
import { WINDOWS } from './store.js';

const SCAN_COUNT = 200;

function keyValues(key: RestoredKeyCounters): string[] {
  const values = [
    String(key.usedNano),
    key.lastUsedTime === null ? '' : String(key.lastUsedTime),
    key.lastQuotaResetToken ?? '',
  ];
  for (const window of WINDOWS) {
    const found = key.windows.find((candidate) => candidate.name === window.name);
    values.push(found === undefined ? '' : String(found.usedNano));
    values.push(found === undefined ? '' : String(found.end));
  }
  return values;
}

/** The restore script's budget values: the plan's windows, then each owner's (PLAN/MEMBER_WINDOWS order). */
function budgetValues(budgets: RestoredBudgets): string[] {
  const values = (
    windows: readonly { name: string; usedNano: number; end: number }[],
    names: readonly string[],
  ) =>
    names.flatMap((name) => {
      const found = windows.find((window) => window.name === name);
      return found === undefined ? ['', ''] : [String(found.usedNano), String(found.end)];
    });
  return [
    ...values(budgets.plan, PLAN_WINDOWS),
    ...budgets.members.flatMap((member) => values(member.windows, MEMBER_WINDOWS)),
  ];
}

function isResult(value: unknown): value is CounterRestoreResult {
  return value === 'restored' || value === 'present' || value === 'moved';
}

/**
 * Of `namespaces`, those with an Account (unless `queued`) whose counters are not whole. One
 * command pair per namespace, in parallel: the namespaces live in different Cluster slots.
 * Counters of a release before the marker are whole: marked here, never restored.
 */
async function missingCounters(
  client: RedisClient,
  names: RedisKeyNames,
  request: { namespaces: readonly string[]; queued: boolean },
): Promise<string[]> {
  const checks = await Promise.all(
    request.namespaces.map(async (namespace) => {
      const ns = names.namespace(namespace);
      const [values, hasAccount] = await Promise.all([
        client.hmget(ns.accountCounters, ...COUNTERS_MARK_FIELDS),
        client.hexists(ns.accountPolicy, 'uid'),
      ]);
      const marks = readCountersMarks(values);
      if (countersUnmarked(marks))
        await client.hset(ns.accountCounters, COUNTERS_PRESENT_FIELD, '1');
      return !countersWhole(marks) && (request.queued || hasAccount === 1);
    }),
  );
  return request.namespaces.filter((_namespace, index) => checks[index] === true);
}

export function createRedisCounterRestore(options: {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
}): CounterRestoreStore {
  const { client, names, runScript } = options;
  return {
    namespacesToRestore: ({ scan }) =>
      guardRedis(async () => {
        const queued = await client.smembers(names.restoreQueue);
        const missing = new Set(
          await missingCounters(client, names, { namespaces: queued, queued: true }),
        );
        const done = queued.filter((namespace) => !missing.has(namespace));
        if (done.length > 0) await client.srem(names.restoreQueue, ...done);
        if (!scan) return [...missing];
        let cursor = '0';
        do {
          const [next, batch] = await client.sscan(names.accountIndex, cursor, 'COUNT', SCAN_COUNT);
          cursor = next;
          const found = await missingCounters(client, names, { namespaces: batch, queued: false });
          for (const namespace of found) missing.add(namespace);
        } while (cursor !== '0');
        return [...missing];
      }),
    usageStreamPosition: (namespace) =>
      guardRedis(async () => {
        const stream = names.namespace(namespace).usageStream;
        const reply = (await runScript('tollgateUsageStreamPosition', [stream], [])) as unknown[];
        return { waiting: Number(reply[0]), lastId: String(reply[1]) };
      }),
    restoreCounters: (restore: CounterRestore) =>
      guardRedis(async () => {
        const ns = names.namespace(restore.namespace);
        const { budgets } = restore;
        const keys = [
          ns.accountCounters,
          ns.usageStream,
          ...restore.keys.map((key) => ns.keyCounters(key.keyUid)),
          ...(budgets?.members ?? []).map((member) => ns.memberCounters(member.owner)),
        ];
        const args = [
          restore.streamLastId,
          String(restore.accountSpentNano),
          ...restore.keys.flatMap(keyValues),
          ...(budgets === undefined
            ? ['-1']
            : [...budgetValues(budgets), String(budgets.members.length)]),
        ];
        const reply: unknown = await runScript('tollgateRestoreCounters', keys, args);
        if (!isResult(reply)) throw new Error(`unexpected restore reply: ${String(reply)}`);
        if (reply !== 'moved') await client.srem(names.restoreQueue, restore.namespace);
        return reply;
      }),
  };
}
