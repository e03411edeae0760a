/**
 * Admission, settlement, leases, upstream slots and counters on Redis: each is one script call (or
 * one plain command) against one slot. The scripts are in admission-script.ts,
 * settlement-script.ts and counter-scripts.ts.
 */
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import type { RunScript } from './define-store-scripts.js';
import { parseAdmissionReply, parseKeyCounters } from './parse-script-replies.js';
import type { RedisKeyNames } from './redis-key-names.js';
import { encodeLeaseCharge, encodeLeaseProgress } from './encode-lease-charge.js';
import type { PolicyWriter, SpendStore } from './store.js';
import { settledRecordJson } from './record-json.js';
import type { QuotaResetEvent } from './usage-records.js';
import { WINDOWS } from './store.js';
import { windowLimit } from './window-limit.js';
import { encodeBudgetCharge, encodeCalendarEnds } from './encode-budget.js';
import { parseMemberCounters, parsePlanWindows } from './parse-budget-counters.js';
import { MEMBER_COUNTER_FIELDS } from './budget-lua.js';

export interface RedisSpendOptions {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
  /** How long the marker of a lease charged as estimated lives (settled-markers.ts). */
  leaseChargeMarkerTtlMs: number;
  /** How long the marker of a settlement lives (settled-markers.ts). */
  settlementMarkerTtlMs: number;
}

export type RedisSpendStore = SpendStore & Pick<PolicyWriter, 'resetQuota' | 'deleteKeyCounters'>;

export function createRedisSpendStore(options: RedisSpendOptions): RedisSpendStore {
  const { client, names, runScript } = options;
  return {
    admit: (request) =>
      guardRedis(() => {
        const ns = names.namespace(request.namespace);
        const { limits } = request;
        const keys = [
          ns.keyCounters(request.keyUid),
          ns.accountCounters,
          ns.accountPolicy,
          ns.inFlight,
          ns.inFlightData,
          ns.inFlightCharge,
          ns.session(request.session?.id ?? ''),
        ];
        const args = [
          ns.base,
          request.requestId,
          request.keyUid,
          request.now,
          request.leaseMs,
          request.estimateNano,
          limits.quotaNano,
        ];
        for (const window of WINDOWS) args.push(windowLimit(limits, window.name));
        args.push(
          request.keyMaxConcurrent,
          request.sourceDenied ? '1' : '0',
          request.modelDenied ? '1' : '0',
          options.leaseChargeMarkerTtlMs,
          encodeLeaseCharge(request.charge, request.estimateNano),
          request.session?.ttlMs ?? 0,
          request.owner ?? '',
          encodeCalendarEnds(request.calendar),
        );
        return runScript('tollgateAdmit', keys, args).then(parseAdmissionReply);
      }),
    renewLease: (requests, untilMs) =>
      guardRedis(async () => {
        // One command per request either way: a plain ZADD, or the script that also keeps the
        // progress (the same round trip).
        await Promise.all(
          requests.map((request) => {
            const ns = names.namespace(request.namespace);
            if (request.progress === undefined) {
              return client.zadd(ns.inFlight, 'XX', 'GT', untilMs, request.requestId);
            }
            const keys = [ns.inFlight, ns.inFlightCharge];
            const args = [request.requestId, untilMs, encodeLeaseProgress(request.progress)];
            return runScript('tollgateRenewLease', keys, args);
          }),
        );
      }),
    settle: (request) =>
      guardRedis(() => {
        const ns = names.namespace(request.namespace);
        const keys = [
          ns.keyCounters(request.keyUid),
          ns.accountCounters,
          ns.inFlight,
          ns.inFlightData,
          ns.settled(request.requestId),
          ns.inFlightCharge,
          ns.usageStream,
        ];
        const args = [
          ns.base,
          request.requestId,
          request.costNano,
          request.now,
          options.settlementMarkerTtlMs,
          settledRecordJson(request.record, request.now),
          request.keyUid,
          encodeBudgetCharge(request.budget),
        ];
        return runScript('tollgateSettle', keys, args).then((reply) => ({ applied: reply === 1 }));
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
        const args = [ns.base, now, options.leaseChargeMarkerTtlMs];
        const reply = await runScript('tollgateReadKeyCounters', keys, args);
        return parseKeyCounters(reply, now);
      }),
    accountCounters: (namespace) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const keys = [ns.accountCounters, ns.inFlight, ns.inFlightData];
        const args = [ns.base, Date.now(), options.leaseChargeMarkerTtlMs];
        const reply = await runScript('tollgateReadAccountCounters', keys, args);
        const [spent, reserved, ...plan] = reply as string[];
        const counters = { spentNano: Number(spent), reservedNano: Number(reserved) };
        // Plan windows only for an account that has had a plan charged.
        if (plan.every((value) => value === '')) return counters;
        return { ...counters, planWindows: parsePlanWindows(plan, Date.now()) };
      }),
    memberCounters: (namespace, owner, now) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const reply = await client.hmget(ns.memberCounters(owner), ...MEMBER_COUNTER_FIELDS);
        return parseMemberCounters(reply, now);
      }),
    accountInFlight: (namespace, now) =>
      guardRedis(async () => {
        // The slots are a sorted set scored by lease end: those ending after now are held.
        return client.zcount(names.namespace(namespace).inFlight, `(${now}`, '+inf');
      }),
    sweepExpiredLeases: (request) =>
      guardRedis(async () => {
        const claimed = await client.set(names.sweepClaim, '1', 'PX', request.claimMs, 'NX');
        if (claimed === null) return { swept: false, charged: 0 };
        let charged = 0;
        let cursor = '0';
        do {
          const [next, namespaces] = await client.sscan(names.accountIndex, cursor, 'COUNT', 200);
          cursor = next;
          const replies = await Promise.all(
            namespaces.map((namespace) => {
              const ns = names.namespace(namespace);
              const keys = [ns.inFlight, ns.inFlightData, ns.inFlightCharge];
              const args = [ns.base, request.now, options.leaseChargeMarkerTtlMs];
              return runScript('tollgateSweepExpiredLeases', keys, args);
            }),
          );
          charged += replies.reduce<number>((sum, reply) => sum + Number(reply), 0);
        } while (cursor !== '0');
        return { swept: true, charged };
      }),
    resetQuota: (namespace, keyUid, token) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const event: QuotaResetEvent = {
          type: 'quotaReset',
          namespace,
          keyUid,
          token,
          time: Date.now(),
        };
        const keys = [ns.keyCounters(keyUid), ns.usageStream];
        return (await runScript('tollgateResetQuota', keys, [token, JSON.stringify(event)])) === 1;
      }),
    deleteKeyCounters: (namespace, keyUid) =>
      guardRedis(async () => {
        await client.del(names.namespace(namespace).keyCounters(keyUid));
      }),
  };
}
