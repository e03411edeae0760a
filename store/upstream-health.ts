/**
 * Upstream health shared by every gateway replica (docs/upstream-pools.md): cool-downs after a 429 /
 * 529, the circuit that opens after consecutive failures and half-opens with one probe call, the
 * optional requests-per-minute limit, and the concurrency slot, all decided by one claim per
 * upstream tried. Sticky sessions (the upstream a conversation is bound to) live in the account's
 * namespace. The types here are the contract; `memory-upstream-health.ts` and the Lua in
 * `upstream-health-scripts.ts` implement the same rules.
 */

/** How failures turn into cool-downs; passed with every report so replicas need no shared config. */
export interface UpstreamHealthPolicy {
  /** Consecutive failures (5xx, transport errors, timeouts) that open the circuit. */
  failureThreshold: number;
  /** Backoff base: the first cool-down without a reset time, and the first open period. */
  baseCooldownMs: number;
  /** Backoff cap: every cool-down and open period is at most this long. */
  maxCooldownMs: number;
}

export interface UpstreamClaimRequest {
  upstream: string;
  requestId: string;
  /** Concurrency limit across replicas; 0 = none (no slot is taken). */
  limit: number;
  /** Requests started per minute across replicas (fixed minute windows); 0 = none. */
  requestsPerMinute: number;
  now: number;
  /** Slot lease (renewed like today's upstream slots). */
  leaseMs: number;
  /** How long the half-open probe holds its claim before another caller may probe. */
  probeLeaseMs: number;
}

/** Why an upstream was skipped. */
export type UpstreamSkipReason = 'CoolingDown' | 'CircuitOpen' | 'Busy' | 'RequestsPerMinute';

export type UpstreamClaim =
  | {
      granted: true;
      /** This call is the circuit's half-open probe: its outcome closes or reopens the circuit. */
      probe: boolean;
      /** A slot was taken (the upstream has a concurrency limit): release it when done. */
      slot: boolean;
      /** The upstream has health state recorded: a success must be reported to clear it. */
      dirty: boolean;
    }
  | {
      granted: false;
      reason: UpstreamSkipReason;
      /** Epoch ms when the reason ends, when known (cool-down end, next minute, probe lease). */
      until: number | null;
    };

/**
 * `rate-limited`: 429; `overloaded`: 529 (and 503 with a reset time); `failed`: 5xx, connect
 * errors, timeouts; `credentials`: the upstream refused the gateway's credential (401 / 403):
 * recorded for status, no cool-down (the caller's request is answered, not failed over).
 */
export type UpstreamFailureKind = 'rate-limited' | 'overloaded' | 'failed' | 'credentials';

export interface UpstreamFailureReport {
  upstream: string;
  kind: UpstreamFailureKind;
  /** Epoch ms the provider named as its reset time; null = use the backoff. */
  resetAt: number | null;
  now: number;
  policy: UpstreamHealthPolicy;
}

export type UpstreamHealthState = 'Healthy' | 'CoolingDown' | 'CircuitOpen';

export interface UpstreamHealth {
  state: UpstreamHealthState;
  /** Epoch ms the cool-down or open period ends; null when healthy. */
  until: number | null;
  /** Consecutive failures since the last success. */
  failures: number;
  /** What started the current state: the failure kind; null when healthy. */
  cause: UpstreamFailureKind | null;
  /** Epoch ms of a credential refusal not followed by a success; null otherwise. */
  credentialsFailedAt: number | null;
}

export interface UpstreamFailureResult extends UpstreamHealth {
  /** This report started a cool-down or opened the circuit (it was not in effect before). */
  started: boolean;
}

export interface SessionBinding {
  namespace: string;
  /** The session identity's digest (never the raw client value). */
  session: string;
  upstream: string;
  ttlMs: number;
  now: number;
}

export interface UpstreamHealthStore {
  /**
   * One atomic step per upstream tried: refuses while it cools down or its circuit is open (the
   * first caller after the open period becomes the probe), at its requests-per-minute limit or
   * its concurrency limit; otherwise counts the request, takes the slot and grants it.
   */
  claimUpstream(request: UpstreamClaimRequest): Promise<UpstreamClaim>;
  reportUpstreamFailure(report: UpstreamFailureReport): Promise<UpstreamFailureResult>;
  /** Clears the upstream's failures, cool-down, open circuit and credential flag. */
  reportUpstreamSuccess(upstream: string): Promise<void>;
  /** The health of each named upstream (the operator's status); unknown names are Healthy. */
  upstreamHealth(names: readonly string[], now: number): Promise<Map<string, UpstreamHealth>>;
  /** Binds a session to the upstream that served it, for `ttlMs` (renewed by admission). */
  bindSession(binding: SessionBinding): Promise<void>;
}

export const HEALTHY: UpstreamHealth = {
  state: 'Healthy',
  until: null,
  failures: 0,
  cause: null,
  credentialsFailedAt: null,
};

/** The backoff after `streak` consecutive cool-downs or opens (1 = the first): base doubling, capped. */
export function backoffMs(policy: UpstreamHealthPolicy, streak: number): number {
  const exponent = Math.min(Math.max(streak - 1, 0), 30);
  return Math.min(policy.maxCooldownMs, policy.baseCooldownMs * 2 ** exponent);
}

/** The state in effect at `now`: a cool-down or open period that has ended no longer counts. */
export function effectiveState(
  recorded: 'cooling' | 'open' | null,
  until: number,
  now: number,
): UpstreamHealthState {
  if (recorded === 'open') return 'CircuitOpen';
  if (recorded === 'cooling' && until > now) return 'CoolingDown';
  return 'Healthy';
}
