/**
 * Admission, settlement and counters on the in-process state, with exactly the semantics of the
 * Redis scripts (admission-script.ts, settlement-script.ts). Synchronous, so each call is atomic.
 * A charge appends its record to the usage record queue in the same step.
 */
import { renewSessionInMaps, sessionKey } from './memory-upstream-health.js';
import type {
  InFlightEntry,
  KeyCounterState,
  MemoryState,
  NamespaceState,
  UsageRecordQueue,
} from './memory-state.js';
import { namespaceState } from './memory-state.js';
import type {
  AdmissionRefusal,
  AdmissionRequest,
  AdmissionResult,
  KeyCounters,
  LeaseRenewal,
  SettlementRequest,
} from './store.js';
import { leaseExpiryCostNano, WINDOWS } from './store.js';
import type { QuotaResetEvent, UsageRecord } from './usage-records.js';
import { settledRecordJson } from './record-json.js';
import type { SettledMarker } from './settled-marker-journal.js';
import { windowLimit } from './window-limit.js';
import type { BudgetCharge } from './budget-windows.js';
import { chargeBudgets, checkBudgets, releaseBudget, reserveBudget } from './memory-budgets.js';

/** What every change needs besides the state: where records go, how long markers live. */
export interface MemorySpendContext {
  queue: UsageRecordQueue;
  /** Lifetimes of a settlement's marker and of a lease charge's (settled-markers.ts). */
  settlementMarkerTtlMs: number;
  leaseChargeMarkerTtlMs: number;
  /** Told of every settlement marker set (the store's marker journal, when it has a folder). */
  noteSettledMarker?: (marker: SettledMarker) => void;
}

function keyState(ns: NamespaceState, keyUid: string): KeyCounterState {
  let found = ns.keys.get(keyUid);
  if (found === undefined) {
    found = { used: 0, reserved: 0, inFlight: 0, windows: {}, lastUsed: null, resetToken: null };
    ns.keys.set(keyUid, found);
  }
  return found;
}

function releaseEntry(ns: NamespaceState, requestId: string): InFlightEntry | undefined {
  const entry = ns.inFlight.get(requestId);
  if (entry === undefined) return undefined;
  ns.inFlight.delete(requestId);
  const counters = ns.keys.get(entry.keyUid);
  if (counters !== undefined) {
    counters.reserved -= entry.estimateNano;
    counters.inFlight -= 1;
  }
  ns.accountReserved -= entry.estimateNano;
  if (entry.budget !== undefined) releaseBudget(ns, entry.budget, entry.estimateNano);
  return entry;
}

/**
 * Sets a marker in `markers` (the namespace's settled or charged markers); false when the request
 * id was settled or charged before.
 */
function mark(
  ns: NamespaceState,
  markers: Map<string, number>,
  marker: { requestId: string; until: number },
): boolean {
  if (ns.settled.has(marker.requestId) || ns.charged.has(marker.requestId)) return false;
  markers.set(marker.requestId, marker.until);
  return true;
}

/** Drops the expired markers: each map has one lifetime, so they are at its front. */
function dropExpiredMarkers(markers: Map<string, number>, now: number): void {
  for (const [requestId, expires] of markers) {
    if (expires > now) break;
    markers.delete(requestId);
  }
}

/** Appends to the namespace's stream (the queue's source is the namespace). */
function appendToStream(context: MemorySpendContext, ns: NamespaceState, body: string): void {
  context.queue.append(ns.name, body);
  ns.appended += 1;
}

/**
 * A time no lease in flight of the namespace ends before: the earliest end seen by the last purge,
 * lowered by every lease set since (a renewal only extends one). Until then a purge has nothing to
 * release and skips its pass over the calls in flight, which every admission would otherwise make.
 * Kept beside the state, not in it: a namespace without one (new, or reloaded) is passed over once.
 */
const leasesEndFrom = new WeakMap<NamespaceState, number>();

/** Notes a lease set to end at `leaseUntil` (a new one, or one set anew). */
function noteLeaseEnd(ns: NamespaceState, leaseUntil: number): void {
  const from = leasesEndFrom.get(ns);
  if (from !== undefined && leaseUntil < from) leasesEndFrom.set(ns, leaseUntil);
}

/**
 * Releases every lease that ended by `now` and charges it once (its estimate, or the progress its
 * renewals brought, bounded by `leaseExpiryCostNano`); returns the count.
 */
export function purgeExpired(context: MemorySpendContext, ns: NamespaceState, now: number): number {
  if (now < (leasesEndFrom.get(ns) ?? -Infinity)) return 0;
  let charged = 0;
  let earliest = Infinity;
  for (const [requestId, entry] of ns.inFlight) {
    if (entry.leaseUntil > now) {
      earliest = Math.min(earliest, entry.leaseUntil);
      continue;
    }
    releaseEntry(ns, requestId);
    const until = now + context.leaseChargeMarkerTtlMs;
    if (entry.charge === undefined || !mark(ns, ns.charged, { requestId, until })) continue;
    const { accountUid, lease, progress } = entry.charge;
    const costNano = leaseExpiryCostNano(entry.estimateNano, progress);
    const record: UsageRecord = {
      ...lease.record,
      costNano,
      accountUid,
      durationMs: Math.max(0, entry.leaseUntil - lease.record.time),
    };
    chargeCost(context, ns, { keyUid: entry.keyUid, costNano, now, record, budget: entry.budget });
    charged += 1;
  }
  leasesEndFrom.set(ns, earliest);
  return charged;
}

function checkKeyAndAccount(
  ns: NamespaceState,
  counters: KeyCounterState,
  request: AdmissionRequest,
): { refusal: AdmissionRefusal } | { budget: BudgetCharge | null } | null {
  const { limits, now } = request;
  if (ns.account !== null && !ns.countersPresent) {
    return { refusal: { reason: 'CountersRestoring', retryAfterSeconds: 1 } };
  }
  if (limits.quotaNano > 0 && counters.used + counters.reserved >= limits.quotaNano) {
    return { refusal: { reason: 'QuotaExhausted' } };
  }
  for (const window of WINDOWS) {
    const limit = windowLimit(limits, window.name);
    if (limit <= 0) continue;
    const state = counters.windows[window.name];
    const open = state !== undefined && state.end > now;
    const used = open ? state.used : 0;
    if (used + counters.reserved >= limit) {
      const retryAfterSeconds = open ? Math.max(1, Math.ceil((state.end - now) / 1000)) : 1;
      return { refusal: { reason: 'WindowExhausted', window: window.name, retryAfterSeconds } };
    }
  }
  if (request.sourceDenied) return { refusal: { reason: 'SourceDenied' } };
  const account = ns.account;
  if (account === null) return { refusal: { reason: 'NoAccount' } };
  const budgets = checkBudgets(ns, account, request);
  if ('refusal' in budgets) return budgets;
  if (account.creditNano !== null && ns.accountSpent + ns.accountReserved >= account.creditNano) {
    return { refusal: { reason: 'BalanceExhausted' } };
  }
  if (account.maxConcurrent > 0 && ns.inFlight.size >= account.maxConcurrent) {
    return { refusal: { reason: 'AccountConcurrency', limit: account.maxConcurrent } };
  }
  if (request.keyMaxConcurrent > 0 && counters.inFlight >= request.keyMaxConcurrent) {
    return { refusal: { reason: 'KeyConcurrency', limit: request.keyMaxConcurrent } };
  }
  if (request.modelDenied) return { refusal: { reason: 'ModelDenied' } };
  return budgets;
}

export function admitInState(
  context: MemorySpendContext,
  state: MemoryState,
  request: AdmissionRequest,
): AdmissionResult {
  const ns = namespaceState(state, request.namespace);
  purgeExpired(context, ns, request.now);
  const existing = ns.inFlight.get(request.requestId);
  if (existing !== undefined) {
    existing.leaseUntil = request.now + request.leaseMs;
    noteLeaseEnd(ns, existing.leaseUntil);
    return { admitted: true, accountUid: ns.account?.uid ?? '' };
  }
  const counters = keyState(ns, request.keyUid);
  const checked = checkKeyAndAccount(ns, counters, request);
  if (checked !== null && 'refusal' in checked)
    return { admitted: false, refusal: checked.refusal };
  const budget = checked?.budget ?? null;
  if (budget !== null) reserveBudget(ns, budget, request.estimateNano);
  noteLeaseEnd(ns, request.now + request.leaseMs);
  ns.inFlight.set(request.requestId, {
    keyUid: request.keyUid,
    estimateNano: request.estimateNano,
    leaseUntil: request.now + request.leaseMs,
    ...(budget === null ? {} : { budget }),
    ...(request.charge === undefined || ns.account === null
      ? {}
      : { charge: { accountUid: ns.account.uid, lease: structuredClone(request.charge) } }),
  });
  counters.reserved += request.estimateNano;
  counters.inFlight += 1;
  ns.accountReserved += request.estimateNano;
  const accountUid = ns.account?.uid ?? '';
  if (request.session === undefined) return { admitted: true, accountUid };
  const { id, ttlMs } = request.session;
  const key = sessionKey(request.namespace, id);
  return {
    admitted: true,
    accountUid,
    boundUpstream: renewSessionInMaps(state, key, { now: request.now, ttlMs }),
  };
}

interface Charge {
  keyUid: string;
  costNano: number;
  now: number;
  record: UsageRecord;
  budget?: BudgetCharge | undefined;
}

/** Quota, windows, account spend, and the record appended (settlement-script.ts). */
function chargeCost(context: MemorySpendContext, ns: NamespaceState, charge: Charge): void {
  const counters = keyState(ns, charge.keyUid);
  const { costNano, now, record } = charge;
  counters.used += costNano;
  for (const window of WINDOWS) {
    const current = counters.windows[window.name];
    if (current !== undefined && current.end > now) current.used += costNano;
    else if (costNano > 0)
      counters.windows[window.name] = { used: costNano, end: now + window.durationMs };
  }
  counters.lastUsed = now;
  ns.accountSpent += costNano;
  if (charge.budget !== undefined) chargeBudgets(ns, charge.budget, { costNano, now });
  appendToStream(context, ns, settledRecordJson(record, now));
}

export function settleInState(
  context: MemorySpendContext,
  state: MemoryState,
  request: SettlementRequest,
): boolean {
  const ns = namespaceState(state, request.namespace);
  dropExpiredMarkers(ns.settled, request.now);
  if (request.now > ns.settledPrunedBefore) ns.settledPrunedBefore = request.now;
  dropExpiredMarkers(ns.charged, request.now);
  const until = request.now + context.settlementMarkerTtlMs;
  if (!mark(ns, ns.settled, { requestId: request.requestId, until })) return false;
  context.noteSettledMarker?.({ namespace: ns.name, requestId: request.requestId, until });
  releaseEntry(ns, request.requestId);
  chargeCost(context, ns, request);
  return true;
}

/** Charges the expired leases of every namespace (the store's sweep). */
export function sweepExpiredInState(
  context: MemorySpendContext,
  state: MemoryState,
  now: number,
): number {
  let charged = 0;
  for (const ns of state.namespaces.values()) charged += purgeExpired(context, ns, now);
  return charged;
}

export function readKeyCounters(
  context: MemorySpendContext,
  state: MemoryState,
  request: { namespace: string; keyUid: string; now: number },
): KeyCounters {
  const ns = namespaceState(state, request.namespace);
  purgeExpired(context, ns, request.now);
  const counters = ns.keys.get(request.keyUid);
  return {
    usedNano: counters?.used ?? 0,
    reservedNano: counters?.reserved ?? 0,
    windows: WINDOWS.map((window) => {
      const current = counters?.windows[window.name];
      const open = current !== undefined && current.end > request.now;
      return {
        name: window.name,
        usedNano: open ? current.used : 0,
        resetTime: open ? current.end : null,
      };
    }),
    lastUsedTime: counters?.lastUsed ?? null,
    lastQuotaResetToken: counters?.resetToken ?? null,
  };
}

export function resetQuotaInState(
  context: MemorySpendContext,
  state: MemoryState,
  request: { namespace: string; keyUid: string; token: string; now: number },
): boolean {
  const ns = namespaceState(state, request.namespace);
  const counters = keyState(ns, request.keyUid);
  if (counters.resetToken === request.token) return false;
  counters.used = 0;
  counters.resetToken = request.token;
  const event: QuotaResetEvent = {
    type: 'quotaReset',
    namespace: request.namespace,
    keyUid: request.keyUid,
    token: request.token,
    time: request.now,
  };
  appendToStream(context, ns, JSON.stringify(event));
  return true;
}

/** A renewal: extends the lease (never shortens it) and keeps the progress it carries. */
export function renewLeaseInState(
  state: MemoryState,
  request: { renewal: LeaseRenewal; untilMs: number },
): void {
  const { renewal, untilMs } = request;
  const entry = state.namespaces.get(renewal.namespace)?.inFlight.get(renewal.requestId);
  if (entry === undefined) return;
  entry.leaseUntil = Math.max(entry.leaseUntil, untilMs);
  const { progress } = renewal;
  if (progress === undefined || entry.charge === undefined) return;
  entry.charge.lease = { record: structuredClone(progress.record) };
  entry.charge.progress = {
    deliveredNano: progress.deliveredNano,
    chargeNano: progress.chargeNano,
  };
}
