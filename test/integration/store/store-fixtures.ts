/** Builders for store contract tests: policies, admission and settlement requests, records. */
import { randomUUID } from 'node:crypto';
import type {
  AccountPolicy,
  AdmissionRequest,
  AdmissionResult,
  KeyPolicy,
  LeaseCharge,
  SettlementRequest,
  Store,
} from '../../../store/store.js';
import { makeRecord } from '../../support/ledger/make-record.js';
import type { UsageRecord } from '../../../store/usage-records.js';

export const NO_LIMITS: KeyPolicy['limits'] = {
  quotaNano: 0,
  fiveHourNano: 0,
  dailyNano: 0,
  sevenDayNano: 0,
};

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export function keyPolicy(overrides: Partial<KeyPolicy> = {}): KeyPolicy {
  return {
    digest: 'd1',
    keyUid: randomUUID(),
    namespace: 'team-a',
    name: 'key-a',
    state: 'Active',
    suspended: false,
    expiresAt: null,
    limits: NO_LIMITS,
    sourceRanges: { allow: [], deny: ['10.0.0.0/8'] },
    maxConcurrent: 0,
    modelsAllow: null,
    group: {
      name: 'claude',
      platform: 'Anthropic',
      multiplier: { numerator: 3, denominator: 2 },
      multiplierText: '1.5',
      upstreams: [{ name: 'anthropic-main', weight: 1, priority: 0 }],
      modelsAllow: ['claude-*'],
      priceOverrides: {},
      priceFallback: null,
    },
    ...overrides,
  };
}

export function accountPolicy(
  namespace: string,
  overrides: Partial<AccountPolicy> = {},
): AccountPolicy {
  return {
    digest: 'a1',
    uid: `account-${namespace}`,
    namespace,
    creditNano: null,
    maxConcurrent: 0,
    ...overrides,
  };
}

/** A namespace with an Account and one key uid, fresh per test. */
export async function tenant(
  store: Store,
  account: Partial<AccountPolicy> | null = {},
): Promise<{ namespace: string; keyUid: string; accountUid: string }> {
  const namespace = uniqueName('ns');
  const policy = accountPolicy(namespace, account ?? {});
  if (account !== null) await store.putAccount(namespace, policy);
  return { namespace, keyUid: randomUUID(), accountUid: policy.uid };
}

export function admission(
  base: { namespace: string; keyUid: string; now: number },
  overrides: Partial<AdmissionRequest> = {},
): AdmissionRequest {
  return {
    requestId: randomUUID(),
    namespace: base.namespace,
    keyUid: base.keyUid,
    limits: NO_LIMITS,
    keyMaxConcurrent: 0,
    sourceDenied: false,
    modelDenied: false,
    estimateNano: 1_000,
    now: base.now,
    leaseMs: 60_000,
    ...overrides,
  };
}

export function usageRecord(overrides: Partial<UsageRecord> = {}): UsageRecord {
  return makeRecord({
    requestId: randomUUID(),
    time: Date.now(),
    accountUid: 'account-team-a',
    keyUid: 'key-uid',
    keyName: 'key-a',
    costNano: 1_234,
    priceVersion: '2026-11-01',
    multiplier: '1.5',
    durationMs: 800,
    timeToFirstByteMs: 120,
    ...overrides,
  });
}

export function settlement(
  base: { namespace: string; keyUid: string; now: number },
  overrides: Partial<SettlementRequest> & { requestId?: string; costNano?: number } = {},
  record: Partial<UsageRecord> = {},
): SettlementRequest {
  const requestId = overrides.requestId ?? randomUUID();
  const costNano = overrides.costNano ?? 1_000;
  return {
    requestId,
    namespace: base.namespace,
    keyUid: base.keyUid,
    costNano,
    now: base.now,
    record: usageRecord({
      requestId,
      namespace: base.namespace,
      keyUid: base.keyUid,
      costNano,
      time: base.now,
      ...record,
    }),
    ...overrides,
  };
}

/** What the gateway prepares at admission: the estimated record charged if the lease ends. */
export function leaseCharge(
  base: { namespace: string; keyUid: string; now: number; requestId: string },
  overrides: Partial<UsageRecord> = {},
): LeaseCharge {
  const record: Partial<UsageRecord> = usageRecord({
    requestId: base.requestId,
    namespace: base.namespace,
    keyUid: base.keyUid,
    time: base.now,
    upstream: null,
    upstreamModel: 'claude-sonnet-4-5',
    usage: {
      inputUncached: 40,
      cacheRead: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 1024,
      reasoning: 0,
    },
    timeToFirstByteMs: null,
    status: 0,
    accuracy: 'estimated',
    flags: ['lease-expired'],
    ...overrides,
  });
  delete record.accountUid;
  delete record.durationMs;
  return { record: record as LeaseCharge['record'] };
}

/** Admits a request whose one-second lease carries its charge, as if its gateway then died. */
export async function admitChargedLease(
  store: Store,
  base: { namespace: string; keyUid: string; now: number },
  estimateNano: number,
): Promise<{ requestId: string; charge: LeaseCharge; admitted: AdmissionResult }> {
  const requestId = randomUUID();
  const charge = leaseCharge({ ...base, requestId });
  const request = admission(base, { requestId, estimateNano, leaseMs: 1_000, charge });
  return { requestId, charge, admitted: await store.admit(request) };
}
