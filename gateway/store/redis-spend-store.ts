/**
 * Admission, settlement, leases, upstream slots and counters on Redis: each is one script call (or
 * one plain command) against one slot. The scripts are in admission-script.ts,
 * settlement-script.ts and counter-scripts.ts.
 */
import { aggregateIncrements } from './aggregate-metrics.js';
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import type { RunScript } from './define-store-scripts.js';
import { parseAdmissionReply, parseKeyCounters } from './parse-script-replies.js';
import type { RedisKeyNames } from './redis-key-names.js';
import { accountDailySuffix, keyDailySuffix } from './redis-key-names.js';
import type { PolicyWriter, SpendStore } from './store.js';
import { WINDOWS } from './store.js';
import { windowLimit } from './window-limit.js';

export interface RedisSpendOptions {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
  settledMarkerTtlMs: number;
}

export type RedisSpendStore = SpendStore & Pick<PolicyWriter, 'resetQuota' | 'deleteKeyCounters'>;

export function createRedisSpendStore(options: RedisSpendOptions): RedisSpendStore {
  const { client, names, runScript } = options;
  return {
    admit: (request) =>
      guardRedis(async () => {
        const ns = names.namespace(request.namespace);
        const { limits } = request;
        const keys = [
          ns.keyCounters(request.keyUid),
          ns.accountCounters,
          ns.accountPolicy,
          ns.inFlight,
          ns.inFlightData,
        ];
        const windowLimits = WINDOWS.map((window) => windowLimit(limits, window.name));
        const args = [
          ns.base,
          request.requestId,
          request.keyUid,
          request.now,
          request.leaseMs,
          request.estimateNano,
          limits.quotaNano,
          ...windowLimits,
          request.keyMaxConcurrent,
          request.sourceDenied ? '1' : '0',
          request.modelDenied ? '1' : '0',
        ];
        return parseAdmissionReply(await runScript('tollgateAdmit', keys, args));
      }),
    renewLease: (requests, untilMs) =>
      guardRedis(async () => {
        await Promise.all(
          requests.map((request) =>
            client.zadd(
              names.namespace(request.namespace).inFlight,
              'XX',
              'GT',
              untilMs,
              request.requestId,
            ),
          ),
        );
      }),
    settle: (request) =>
      guardRedis(async () => {
        const ns = names.namespace(request.namespace);
        const { record } = request;
        const keys = [
          ns.keyCounters(request.keyUid),
          ns.accountCounters,
          ns.inFlight,
          ns.inFlightData,
          ns.settled(request.requestId),
          ns.records,
          ns.recordData,
          ns.keyRecords(request.keyUid),
          ns.keyDaily(request.keyUid, request.day),
          ns.accountDaily(request.day),
          ns.aggregateIndex,
        ];
        const args = [
          ns.base,
          request.requestId,
          request.costNano,
          request.now,
          options.settledMarkerTtlMs,
          record.time,
          JSON.stringify(record),
          record.model,
          keyDailySuffix(request.keyUid, request.day),
          accountDailySuffix(request.day),
          ...aggregateIncrements(record),
        ];
        return { applied: (await runScript('tollgateSettle', keys, args)) === 1 };
      }),
    acquireUpstreamSlot: (request) =>
      guardRedis(async () => {
        const reply = await runScript(
          'tollgateAcquireUpstreamSlot',
          [names.upstreamSlots(request.upstream)],
          [request.requestId, request.limit, request.now, request.leaseMs],
        );
        return reply === 1;
      }),
    releaseUpstreamSlot: (upstream, requestId) =>
      guardRedis(async () => {
        await client.zrem(names.upstreamSlots(upstream), requestId);
      }),
    keyCounters: (namespace, keyUid, now) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const keys = [ns.keyCounters(keyUid), ns.accountCounters, ns.inFlight, ns.inFlightData];
        const reply = await runScript('tollgateReadKeyCounters', keys, [ns.base, now]);
        return parseKeyCounters(reply, now);
      }),
    accountCounters: (namespace) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const keys = [ns.accountCounters, ns.inFlight, ns.inFlightData];
        const reply = await runScript('tollgateReadAccountCounters', keys, [ns.base, Date.now()]);
        const [spent, reserved] = reply as [string, string];
        return { spentNano: Number(spent), reservedNano: Number(reserved) };
      }),
    resetQuota: (namespace, keyUid, token) =>
      guardRedis(async () => {
        const key = names.namespace(namespace).keyCounters(keyUid);
        return (await runScript('tollgateResetQuota', [key], [token])) === 1;
      }),
    deleteKeyCounters: (namespace, keyUid) =>
      guardRedis(async () => {
        await client.del(names.namespace(namespace).keyCounters(keyUid));
      }),
  };
}
