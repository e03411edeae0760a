/**
 * The store: the policy cache the operator writes and the gateway reads, plus the spend counters,
 * concurrency slots, reservations and usage records. One interface, two implementations (Redis with
 * Lua scripts; in-process memory persisted to the data folder). Nothing else knows which one it has.
 *
 * Money is integer nano-USD (1e-9 USD) everywhere in here. Times are epoch milliseconds.
 */
import type { Platform } from '../crds/schema/resources.js';
import type { KeyPolicy, UpstreamPolicy, AccountPolicy, GroupPolicy } from './policy-documents.js';
import type { UsageRecord, UsageQueries } from './usage-records.js';

export type { KeyPolicy, UpstreamPolicy, AccountPolicy, GroupPolicy } from './policy-documents.js';

export const WINDOWS = [
  { name: 'FiveHour', durationMs: 5 * 3600_000 },
  { name: 'Daily', durationMs: 24 * 3600_000 },
  { name: 'SevenDay', durationMs: 7 * 24 * 3600_000 },
] as const;
export type WindowName = (typeof WINDOWS)[number]['name'];

/** Refusals decided inside the atomic admission step, in the order they are checked. */
export type AdmissionRefusal =
  | { reason: 'QuotaExhausted' }
  | { reason: 'WindowExhausted'; window: WindowName; retryAfterSeconds: number }
  | { reason: 'SourceDenied' }
  | { reason: 'NoAccount' }
  | { reason: 'BalanceExhausted' }
  | { reason: 'AccountConcurrency'; limit: number }
  | { reason: 'KeyConcurrency'; limit: number }
  | { reason: 'ModelDenied' };

export interface AdmissionRequest {
  requestId: string;
  /** The key's namespace: every counter one admission touches lives in this namespace's slot. */
  namespace: string;
  keyUid: string;
  limits: KeyPolicy['limits'];
  keyMaxConcurrent: number;
  /** Precomputed by the caller from pure checks; applied at their place in the refusal order. */
  sourceDenied: boolean;
  modelDenied: boolean;
  /** Reserved now, replaced by the actual cost at settlement. */
  estimateNano: number;
  now: number;
  /** Slot and reservation lease; renewed by `renewLease` during long streams. */
  leaseMs: number;
  /**
   * What to charge if the lease ends before the request is settled (a gateway died): the
   * reservation `estimateNano` is charged once, with this record (`accuracy: 'estimated'`). Without
   * it an expired lease is only released (store-level callers that never forward anything).
   */
  charge?: LeaseCharge;
}

/**
 * The usage record of a request whose lease ended unsettled, prepared at admission. The store adds
 * `accountUid` (known inside the admission step) and `durationMs` (until the lease ended); the
 * record's `costNano` is the reservation.
 */
export interface LeaseCharge {
  record: Omit<UsageRecord, 'accountUid' | 'durationMs'>;
  /** `YYYY-MM-DD` of the record's time in the deployment's time zone, for the daily aggregates. */
  day: string;
}

export interface LeaseSweepRequest {
  now: number;
  /**
   * The sweep is claimed for this long across all replicas sharing the store: a replica that finds
   * it claimed sweeps nothing, so the work per period does not grow with the replica count.
   */
  claimMs: number;
}

export interface LeaseSweepResult {
  /** False when another replica holds the claim (nothing was swept). */
  swept: boolean;
  /** Expired leases charged as estimated usage records. */
  charged: number;
}

export type AdmissionResult =
  { admitted: true; accountUid: string } | { admitted: false; refusal: AdmissionRefusal };

export interface SettlementRequest {
  requestId: string;
  namespace: string;
  keyUid: string;
  /** The actual cost (already multiplied by the group multiplier and rounded once). */
  costNano: number;
  now: number;
  /** `YYYY-MM-DD` of `now` in the deployment's time zone, for the daily aggregates. */
  day: string;
  /** Written with the settlement, in the same atomic step. */
  record: UsageRecord;
}

export interface SettlementResult {
  /** False when this request id was settled before (the call changed nothing). */
  applied: boolean;
}

export interface UpstreamSlotRequest {
  upstream: string;
  requestId: string;
  limit: number;
  now: number;
  leaseMs: number;
}

export interface KeyCounters {
  usedNano: number;
  reservedNano: number;
  windows: { name: WindowName; usedNano: number; resetTime: number | null }[];
  lastUsedTime: number | null;
  lastQuotaResetToken: string | null;
}

export interface AccountCounters {
  spentNano: number;
  reservedNano: number;
}

export interface PolicyWriter {
  putKeyPolicy(keyHash: string, policy: KeyPolicy): Promise<void>;
  deleteKeyPolicy(keyHash: string): Promise<void>;
  /** Every key hash with its policy's `digest`, so the writer can apply only the difference. */
  listKeyPolicyDigests(): Promise<Map<string, string>>;
  putGroup(policy: GroupPolicy): Promise<void>;
  deleteGroup(name: string): Promise<void>;
  putUpstream(policy: UpstreamPolicy): Promise<void>;
  deleteUpstream(name: string): Promise<void>;
  putAccount(namespace: string, policy: AccountPolicy): Promise<void>;
  deleteAccount(namespace: string): Promise<void>;
  /** Zeroes the used quota once per token; returns false when the token was handled already. */
  resetQuota(namespace: string, keyUid: string, token: string): Promise<boolean>;
  /** Removes every counter of a deleted key. Usage records stay until retention removes them. */
  deleteKeyCounters(namespace: string, keyUid: string): Promise<void>;
}

export interface PolicyReader {
  getKeyPolicy(keyHash: string): Promise<KeyPolicy | null>;
  getGroup(name: string): Promise<GroupPolicy | null>;
  getUpstream(name: string): Promise<UpstreamPolicy | null>;
  getAccount(namespace: string): Promise<AccountPolicy | null>;
}

export interface SpendStore {
  /** One atomic step: every check in order, then the reservation and the concurrency slots. */
  admit(request: AdmissionRequest): Promise<AdmissionResult>;
  /** Extends the reservation and slot leases of requests still streaming. */
  renewLease(
    requests: readonly { namespace: string; keyUid: string; requestId: string }[],
    untilMs: number,
  ): Promise<void>;
  /**
   * Exactly once per request id: replaces the reservation by the cost, releases the slots. A
   * request whose lease ended unsettled was charged its estimate then; settling it later changes
   * nothing (`applied: false`).
   */
  settle(request: SettlementRequest): Promise<SettlementResult>;
  /**
   * Charges every expired, unsettled lease of every account (as admission and the counter reads do
   * lazily for their own namespace), so a namespace without further traffic is billed too.
   */
  sweepExpiredLeases(request: LeaseSweepRequest): Promise<LeaseSweepResult>;
  acquireUpstreamSlot(request: UpstreamSlotRequest): Promise<boolean>;
  releaseUpstreamSlot(upstream: string, requestId: string): Promise<void>;
  keyCounters(namespace: string, keyUid: string, now: number): Promise<KeyCounters>;
  accountCounters(namespace: string): Promise<AccountCounters>;
}

export interface Store extends PolicyWriter, PolicyReader, SpendStore, UsageQueries {
  readonly kind: 'redis' | 'memory';
  /** Resolves when the store can serve; rejects with a StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const storeUnavailableBrand = Symbol.for('tollgate.StoreUnavailableError');

/** Thrown by every store call when the backing service cannot be reached. */
export class StoreUnavailableError extends Error {
  readonly [storeUnavailableBrand] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
  static is(value: unknown): value is StoreUnavailableError {
    return typeof value === 'object' && value !== null && storeUnavailableBrand in value;
  }
}

export type { Platform };
