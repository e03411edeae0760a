/**
 * The store: the policy cache the operator writes and the gateway reads, plus the spend counters,
 * concurrency slots and reservations, and the per-account stream of settled usage records the
 * recorder drains into the ledger. One interface, two implementations (Redis with Lua scripts;
 * in-process memory persisted to the data folder). Nothing else knows which one it has.
 *
 * Money is integer nano-USD (1e-9 USD) everywhere in here. Times are epoch milliseconds.
 */
import type { Platform } from '../crds/schema/resources.js';
import type { KeyPolicy, UpstreamPolicy, AccountPolicy, GroupPolicy } from './policy-documents.js';
import type { LeaseRecord, SettledRecord, UsageRecord } from './usage-records.js';
import type { UpstreamHealthStore } from './upstream-health.js';
import type { CapturedCall, CaptureHandOffResult, PendingCapture } from './captured-call.js';
import type { NotificationStore } from './notification-deliveries.js';
import type {
  BudgetCharge,
  CalendarEnds,
  MemberWindowName,
  PlanWindowName,
} from './budget-windows.js';

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
  /** A member budget window of the key's owner is used up (budget-windows.ts). */
  | { reason: 'MemberBudgetExhausted'; window: MemberWindowName; retryAfterSeconds: number }
  /** A window of the account's plan is used up. */
  | { reason: 'SubscriptionExhausted'; window: PlanWindowName; retryAfterSeconds: number }
  /** Outside the subscription's period, and no balance left to pay instead. */
  | { reason: 'SubscriptionExpired' }
  | { reason: 'BalanceExhausted' }
  | { reason: 'AccountConcurrency'; limit: number }
  | { reason: 'KeyConcurrency'; limit: number }
  | { reason: 'ModelDenied' }
  /** The store lost the account's counters; they are being restored from the ledger. */
  | { reason: 'CountersRestoring'; retryAfterSeconds: number };

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
  /** The key's owner: counted toward the account's member limits (budget-windows.ts). */
  owner?: string | undefined;
  /**
   * Where the account's calendar windows end; passed when the account has a plan or member limits
   * (without it the store counts UTC days).
   */
  calendar?: CalendarEnds | undefined;
  /** Slot and reservation lease; renewed by `renewLease` during long streams. */
  leaseMs: number;
  /**
   * What to charge if the lease ends before the request is settled (a gateway died): the
   * reservation `estimateNano` is charged once, with this record (`accuracy: 'estimated'`), unless
   * a renewal brought the request's progress (`LeaseProgress`), which is charged then. Without
   * it an expired lease is only released (store-level callers that never forward anything).
   */
  charge?: LeaseCharge;
  /**
   * Sticky sessions: the digest of the caller's session identity. When admitted, the upstream the
   * session is bound to is returned (`boundUpstream`) and the binding renewed for `ttlMs`.
   */
  session?: { id: string; ttlMs: number };
}

/**
 * The usage record of a request whose lease ended unsettled, prepared at admission. The store adds
 * `accountUid` (known inside the admission step) and `durationMs` (until the lease ended), and
 * writes `costNano` (the reservation, or the progress a renewal brought: `leaseExpiryCostNano`).
 */
export interface LeaseCharge {
  record: LeaseRecord;
}

/**
 * What a renewal tells the store about a request still streaming: the usage record as it stands
 * (the buckets delivered so far), their cost, and the charge to make if the lease ends unsettled
 * (the delivered cost plus what the upstream may still bill). The store keeps the latest with the
 * lease and charges it instead of the reservation: `leaseExpiryCostNano` bounds it.
 */
export interface LeaseProgress {
  record: LeaseCharge['record'];
  deliveredNano: number;
  chargeNano: number;
}

/** One request whose lease a renewal extends, with its progress when it has streamed. */
export interface LeaseRenewal {
  namespace: string;
  keyUid: string;
  requestId: string;
  progress?: LeaseProgress | undefined;
}

/**
 * The charge of a lease that ended unsettled: the reservation without progress; with progress its
 * charge, at most the reservation, and never less than what was delivered (which wins over the
 * reservation when the delivered usage already exceeds it: that much was billed upstream).
 */
export function leaseExpiryCostNano(
  estimateNano: number,
  progress: Pick<LeaseProgress, 'deliveredNano' | 'chargeNano'> | undefined,
): number {
  if (progress === undefined) return estimateNano;
  return Math.max(progress.deliveredNano, Math.min(progress.chargeNano, estimateNano));
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
  | {
      admitted: true;
      accountUid: string;
      /** With a `session` only: the upstream it is bound to, null for none. */
      boundUpstream?: string | null;
    }
  | { admitted: false; refusal: AdmissionRefusal };

export interface SettlementRequest {
  requestId: string;
  namespace: string;
  keyUid: string;
  /** The actual cost (already multiplied by the group multiplier and rounded once). */
  costNano: number;
  now: number;
  /** Appended to the account's usage stream (with `chargedAt = now`) in the same atomic step. */
  record: UsageRecord;
  /** The plan and member windows the cost also goes to (absent: none). */
  budget?: BudgetCharge | undefined;
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
  /** The plan's windows (every kind; resetTime null while closed); absent until a plan was charged. */
  planWindows?: { name: PlanWindowName; usedNano: number; resetTime: number | null }[];
}

export interface MemberCounters {
  reservedNano: number;
  windows: { name: MemberWindowName; usedNano: number; resetTime: number | null }[];
}

/** One key document of a bulk write (`putKeyPolicies`). */
export interface KeyPolicyEntry {
  keyHash: string;
  policy: KeyPolicy;
}

export interface PolicyWriter {
  putKeyPolicy(keyHash: string, policy: KeyPolicy): Promise<void>;
  /**
   * Many key documents at once, as fast as the store takes them (Redis: pipelined, the index in one
   * command per call). Same order as `putKeyPolicy`: the documents first, then their index entries.
   */
  putKeyPolicies(entries: readonly KeyPolicyEntry[]): Promise<void>;
  deleteKeyPolicy(keyHash: string): Promise<void>;
  /** Every key hash with its policy's `digest`, so the writer can apply only the difference. */
  listKeyPolicyDigests(): Promise<Map<string, string>>;
  putGroup(policy: GroupPolicy): Promise<void>;
  deleteGroup(name: string): Promise<void>;
  putUpstream(policy: UpstreamPolicy): Promise<void>;
  deleteUpstream(name: string): Promise<void>;
  /**
   * Writes the account's policy. A namespace whose counters the store does not hold is either new
   * (its counters start whole, at zero) or was programmed before and lost them (Redis flushed or
   * replaced): then admission refuses its calls with `CountersRestoring` until the recorder has
   * restored them from the ledger. `programmedBefore` tells them apart (the Account's status says
   * it was in the policy cache); absent means new. Counters charged by a release before the
   * whole-counters marker are held (counters-whole.ts): marked whole, never restored.
   */
  putAccount(
    namespace: string,
    policy: AccountPolicy,
    options?: { programmedBefore?: boolean },
  ): Promise<void>;
  deleteAccount(namespace: string): Promise<void>;
  /** Zeroes the used quota once per token; returns false when the token was handled already. */
  resetQuota(namespace: string, keyUid: string, token: string): Promise<boolean>;
  /** Removes every counter of a deleted key. Usage records stay until retention removes them. */
  deleteKeyCounters(namespace: string, keyUid: string): Promise<void>;
  /**
   * Starts a full program of the policy cache (the operator's reload): records `generation` as the
   * program in progress. Data the store loses meanwhile takes this record with it.
   */
  beginPolicyReload(generation: string): Promise<void>;
  /**
   * Ends the full program: writes the generation marker, in one atomic step, only if `generation`
   * is still the program in progress (nothing was lost, no other program began since). Returns
   * false otherwise: the caller programs everything again.
   */
  commitPolicyReload(generation: string): Promise<boolean>;
}

export interface PolicyReader {
  getKeyPolicy(keyHash: string): Promise<KeyPolicy | null>;
  getGroup(name: string): Promise<GroupPolicy | null>;
  getUpstream(name: string): Promise<UpstreamPolicy | null>;
  getAccount(namespace: string): Promise<AccountPolicy | null>;
  /**
   * The generation marker the operator writes after each full program of the policy cache. Null
   * while the cache is being programmed: never programmed yet, or its data lost since (a Redis
   * flush, restart without persistence, failover to an empty replica). A document missing then is
   * missing because it is not back yet, not because it does not exist.
   */
  readPolicyMarker(): Promise<string | null>;
}

export interface SpendStore {
  /** One atomic step: every check in order, then the reservation and the concurrency slots. */
  admit(request: AdmissionRequest): Promise<AdmissionResult>;
  /**
   * Extends the reservation and slot leases of requests still streaming, and keeps the progress a
   * renewal carries with the lease (in the same command per request: no extra round trip).
   */
  renewLease(requests: readonly LeaseRenewal[], untilMs: number): Promise<void>;
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
  /**
   * The member budget windows of one owner (every kind; resetTime null while closed), with the
   * reservation of the owner's requests in flight.
   */
  memberCounters(namespace: string, owner: string, now: number): Promise<MemberCounters>;
  /** Requests of the namespace holding a concurrency slot whose lease has not ended at `now`. */
  accountInFlight(namespace: string, now: number): Promise<number>;
}

/** Where the settled records stand in a namespace's usage stream. */
export interface UsageStreamPosition {
  /** Records appended and not yet acknowledged by the recorder. */
  waiting: number;
  /** Id of the last record appended (also when acknowledged since); `0-0` when none. */
  lastId: string;
}

export interface RestoredKeyCounters {
  keyUid: string;
  usedNano: number;
  /** The last window of each kind opened (open or not), as the live counters hold it. */
  windows: { name: WindowName; usedNano: number; end: number }[];
  lastUsedTime: number | null;
  lastQuotaResetToken: string | null;
}

/** Plan and member windows rebuilt from the ledger (the last window of each kind). */
export interface RestoredBudgets {
  plan: { name: PlanWindowName; usedNano: number; end: number }[];
  members: {
    owner: string;
    windows: { name: MemberWindowName; usedNano: number; end: number }[];
  }[];
}

export interface CounterRestore {
  namespace: string;
  /** For an account with a plan or member limits. */
  budgets?: RestoredBudgets;
  /** The stream position the ledger was read at: the restore applies only if it is unchanged. */
  streamLastId: string;
  accountSpentNano: number;
  keys: RestoredKeyCounters[];
}

/**
 * `restored`: written and marked whole; `present`: the counters were whole already (nothing
 * written); `moved`: records were appended since the ledger was read (read again and retry).
 */
export type CounterRestoreResult = 'restored' | 'present' | 'moved';

/** What the recorder uses to restore counters the store lost (never the gateway). */
export interface CounterRestoreStore {
  /**
   * Namespaces with an Account whose counters are not whole: those queued by `putAccount`, and,
   * with `scan`, any other found by walking every account (a partial loss).
   */
  namespacesToRestore(options: { scan: boolean }): Promise<string[]>;
  usageStreamPosition(namespace: string): Promise<UsageStreamPosition>;
  /** Writes the rebuilt counters and marks them whole, in one atomic step. */
  restoreCounters(restore: CounterRestore): Promise<CounterRestoreResult>;
}

/**
 * The bounded hand-off of captured bodies (captured-call.ts, docs/captures.md): the gateway hands a
 * redacted capture over at settlement time, the recorder takes it into the ledger and acknowledges
 * it. Delivery is at least once (a recorder that dies before acknowledging leaves it for the next
 * read): the ledger keeps one capture per request id.
 */
export interface CaptureStore {
  /**
   * Appends the capture, never blocking: over the queue's bound the oldest captures are dropped
   * (Redis: one script call, pipelined with the settlement; nobody waits for it).
   */
  handOffCapture(call: CapturedCall): Promise<CaptureHandOffResult>;
  /** The oldest waiting captures, at most `limit`; entries that do not parse are removed. */
  pendingCaptures(limit: number): Promise<PendingCapture[]>;
  /** Removes taken captures (ids from `pendingCaptures`); unknown ids are ignored. */
  ackCaptures(ids: readonly string[]): Promise<void>;
}

export interface Store
  extends
    PolicyWriter,
    PolicyReader,
    SpendStore,
    CounterRestoreStore,
    UpstreamHealthStore,
    CaptureStore,
    NotificationStore {
  readonly kind: 'redis' | 'memory';
  /**
   * The records of a namespace appended to its usage stream and not yet taken by the recorder,
   * oldest first, at most `limit` (diagnostics and tests; the ledger holds the history).
   */
  pendingUsageRecords(namespace: string, limit: number): Promise<SettledRecord[]>;
  /** Resolves when the store can serve; rejects with a StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  /**
   * Calls `listener` each time the connection to the store comes back after it was lost (a
   * restarted Redis may have lost its data). Never for the memory store. Returns the unsubscribe.
   */
  onReconnect(listener: () => void): () => void;
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
