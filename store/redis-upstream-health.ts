/**
 * Upstream health on Redis: one script per claim and per failure report against the upstream's
 * slot (upstream-health-scripts.ts), a plain `DEL` for a success, `HMGET` per upstream for status,
 * and `SET PX` for a session binding (in the account's namespace slot).
 */
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import type { RunScript } from './define-store-scripts.js';
import type { RedisKeyNames } from './redis-key-names.js';
import { READ_UPSTREAM_HEALTH_FIELDS } from './upstream-health-scripts.js';
import {
  effectiveState,
  type UpstreamClaim,
  type UpstreamFailureKind,
  type UpstreamHealth,
  type UpstreamHealthStore,
  type UpstreamSkipReason,
} from './upstream-health.js';
import { MINUTE_MS } from './memory-upstream-health.js';

const SKIP_REASONS: readonly UpstreamSkipReason[] = [
  'CoolingDown',
  'CircuitOpen',
  'Busy',
  'RequestsPerMinute',
];
const KINDS: readonly UpstreamFailureKind[] = [
  'rate-limited',
  'overloaded',
  'failed',
  'credentials',
];

function kindOf(value: string | null | undefined): UpstreamFailureKind | null {
  return KINDS.find((kind) => kind === value) ?? null;
}

function recordedState(value: string | null | undefined): 'cooling' | 'open' | null {
  return value === 'cooling' || value === 'open' ? value : null;
}

function toHealth(
  fields: {
    state: string | null | undefined;
    until: string | null | undefined;
    failures: string | null | undefined;
    cause: string | null | undefined;
    auth: string | null | undefined;
  },
  now: number,
): UpstreamHealth {
  const until = Number(fields.until ?? '0');
  const state = effectiveState(recordedState(fields.state), until, now);
  return {
    state,
    until: state === 'Healthy' ? null : until,
    failures: Number(fields.failures ?? '0'),
    cause: state === 'Healthy' ? null : kindOf(fields.cause),
    credentialsFailedAt:
      fields.auth === null || fields.auth === undefined || fields.auth === ''
        ? null
        : Number(fields.auth),
  };
}

export function parseClaimReply(reply: unknown): UpstreamClaim {
  if (!Array.isArray(reply)) throw new Error('unexpected upstream claim reply');
  const [granted, first, second, third] = reply.map(String);
  if (granted === '1') {
    return { granted: true, probe: first === '1', slot: second === '1', dirty: third === '1' };
  }
  const reason = SKIP_REASONS.find((known) => known === first);
  if (reason === undefined) throw new Error(`unexpected upstream claim reason: ${first}`);
  return { granted: false, reason, until: second === '' ? null : Number(second) };
}

export function createRedisUpstreamHealth(options: {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
}): UpstreamHealthStore {
  const { client, names, runScript } = options;
  return {
    claimUpstream: (request) =>
      guardRedis(async () => {
        const windowStart = Math.floor(request.now / MINUTE_MS) * MINUTE_MS;
        const keys = [
          names.upstreamHealth(request.upstream),
          names.upstreamSlots(request.upstream),
          names.upstreamRequests(request.upstream, windowStart),
        ];
        const args = [
          request.requestId,
          request.limit,
          request.requestsPerMinute,
          request.now,
          request.leaseMs,
          request.probeLeaseMs,
          windowStart + MINUTE_MS,
        ];
        return parseClaimReply(await runScript('tollgateClaimUpstream', keys, args));
      }),
    reportUpstreamFailure: (report) =>
      guardRedis(async () => {
        const { policy } = report;
        const reply = await runScript(
          'tollgateReportUpstreamFailure',
          [names.upstreamHealth(report.upstream)],
          [
            report.kind,
            report.resetAt === null ? '' : Math.round(report.resetAt),
            report.now,
            policy.failureThreshold,
            policy.baseCooldownMs,
            policy.maxCooldownMs,
          ],
        );
        if (!Array.isArray(reply)) throw new Error('unexpected upstream failure reply');
        const [state, until, failures, cause, auth, started] = reply.map(String);
        return {
          ...toHealth({ state, until, failures, cause, auth }, report.now),
          started: started === '1',
        };
      }),
    reportUpstreamSuccess: (upstream) =>
      guardRedis(async () => {
        await client.del(names.upstreamHealth(upstream));
      }),
    upstreamHealth: (upstreams, now) =>
      guardRedis(async () => {
        const replies = await Promise.all(
          upstreams.map((name) =>
            client.hmget(names.upstreamHealth(name), ...READ_UPSTREAM_HEALTH_FIELDS),
          ),
        );
        const health = new Map<string, UpstreamHealth>();
        upstreams.forEach((name, index) => {
          const [state, until, failures, cause, auth] = replies[index] ?? [];
          health.set(name, toHealth({ state, until, failures, cause, auth }, now));
        });
        return health;
      }),
    bindSession: (binding) =>
      guardRedis(async () => {
        const key = names.namespace(binding.namespace).session(binding.session);
        await client.set(key, binding.upstream, 'PX', Math.max(1, Math.round(binding.ttlMs)));
      }),
  };
}
