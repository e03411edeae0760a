/**
 * The upstream health rules on plain records (the memory store; the Redis scripts in
 * `upstream-health-scripts.ts` apply the same rules to a hash per upstream). Every function runs
 * synchronously inside one memory-store call, so each is atomic.
 */
import {
  backoffMs,
  effectiveState,
  HEALTHY,
  type UpstreamClaim,
  type UpstreamClaimRequest,
  type UpstreamFailureReport,
  type UpstreamFailureResult,
  type UpstreamHealth,
} from './upstream-health.js';

/** What is kept per upstream; the same fields as the Redis hash `upstream:{name}:health`. */
export interface HealthRecord {
  state: 'cooling' | 'open' | null;
  until: number;
  failures: number;
  /** Cool-downs and opens since the last success: the backoff exponent. */
  streak: number;
  cause: UpstreamFailureReport['kind'] | null;
  probe: string | null;
  probeUntil: number;
  credentialsFailedAt: number | null;
}

/** The memory store's upstream state (kept in the persisted state). */
export interface UpstreamHealthMaps {
  /** Upstream -> health record (absent = healthy). */
  upstreamHealth: Map<string, HealthRecord>;
  /** Upstream -> [window start, requests started in it]. */
  upstreamRequests: Map<string, [number, number]>;
  /** `namespace TAB session` -> [upstream, binding end]. */
  sessions: Map<string, [string, number]>;
}

export const MINUTE_MS = 60_000;

function emptyRecord(): HealthRecord {
  return {
    state: null,
    until: 0,
    failures: 0,
    streak: 0,
    cause: null,
    probe: null,
    probeUntil: 0,
    credentialsFailedAt: null,
  };
}

export function healthOf(record: HealthRecord | undefined, now: number): UpstreamHealth {
  if (record === undefined) return HEALTHY;
  const state = effectiveState(record.state, record.until, now);
  return {
    state,
    until: state === 'Healthy' ? null : record.until,
    failures: record.failures,
    cause: state === 'Healthy' ? null : record.cause,
    credentialsFailedAt: record.credentialsFailedAt,
  };
}

/** The claim rules; `slots` is the upstream's request id -> lease end map. */
export function claimInMaps(
  maps: UpstreamHealthMaps,
  slots: Map<string, number>,
  request: UpstreamClaimRequest,
): UpstreamClaim {
  const { now } = request;
  const record = maps.upstreamHealth.get(request.upstream);
  let probe = false;
  if (record?.state === 'cooling' && record.until > now) {
    return { granted: false, reason: 'CoolingDown', until: record.until };
  }
  if (record?.state === 'open') {
    if (record.until > now) return { granted: false, reason: 'CircuitOpen', until: record.until };
    if (record.probe !== null && record.probe !== request.requestId && record.probeUntil > now) {
      return { granted: false, reason: 'CircuitOpen', until: record.probeUntil };
    }
    probe = true;
  }
  const windowStart = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const counted = maps.upstreamRequests.get(request.upstream);
  const started = counted !== undefined && counted[0] === windowStart ? counted[1] : 0;
  if (request.requestsPerMinute > 0 && started >= request.requestsPerMinute) {
    return { granted: false, reason: 'RequestsPerMinute', until: windowStart + MINUTE_MS };
  }
  let slot = false;
  if (request.limit > 0) {
    for (const [requestId, leaseUntil] of slots) if (leaseUntil <= now) slots.delete(requestId);
    if (!slots.has(request.requestId) && slots.size >= request.limit) {
      return { granted: false, reason: 'Busy', until: null };
    }
    slots.set(request.requestId, now + request.leaseMs);
    slot = true;
  }
  if (request.requestsPerMinute > 0) {
    maps.upstreamRequests.set(request.upstream, [windowStart, started + 1]);
  }
  if (probe && record !== undefined) {
    record.probe = request.requestId;
    record.probeUntil = now + request.probeLeaseMs;
  }
  return { granted: true, probe, slot, dirty: record !== undefined };
}

export function reportFailureInMaps(
  maps: UpstreamHealthMaps,
  report: UpstreamFailureReport,
): UpstreamFailureResult {
  const { now, policy } = report;
  const record = maps.upstreamHealth.get(report.upstream) ?? emptyRecord();
  maps.upstreamHealth.set(report.upstream, record);
  const before = effectiveState(record.state, record.until, now);
  if (report.kind === 'credentials') {
    record.credentialsFailedAt = now;
    return { ...healthOf(record, now), started: false };
  }
  record.failures += 1;
  if (report.kind === 'rate-limited' || report.kind === 'overloaded') {
    record.streak += 1;
    const until = report.resetAt ?? now + backoffMs(policy, record.streak);
    record.until = record.state === 'cooling' ? Math.max(record.until, until) : until;
    record.state = 'cooling';
    record.cause = report.kind;
    record.probe = null;
  } else if (record.state === 'open') {
    // A failure while open only counts once the open period is over (the probe, or a caller of
    // the half-open circuit): the circuit reopens for a longer period.
    if (record.until <= now) {
      record.streak += 1;
      record.until = now + backoffMs(policy, record.streak);
      record.probe = null;
    }
  } else if (record.failures >= policy.failureThreshold) {
    record.streak += 1;
    record.state = 'open';
    record.until = now + backoffMs(policy, record.streak);
    record.cause = 'failed';
    record.probe = null;
  }
  const health = healthOf(record, now);
  return { ...health, started: before === 'Healthy' && health.state !== 'Healthy' };
}

/** Looks the session up and renews its binding (admission); null when unbound or ended. */
export function renewSessionInMaps(
  maps: UpstreamHealthMaps,
  key: string,
  renewal: { now: number; ttlMs: number },
): string | null {
  const { now, ttlMs } = renewal;
  const bound = maps.sessions.get(key);
  if (bound === undefined) return null;
  if (bound[1] <= now) {
    maps.sessions.delete(key);
    return null;
  }
  bound[1] = now + ttlMs;
  return bound[0];
}

export function sessionKey(namespace: string, session: string): string {
  return `${namespace}\t${session}`;
}
