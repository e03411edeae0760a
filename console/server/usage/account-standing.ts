/**
 * An account's standing for its dashboard: credit, spent and balance, money reserved by requests
 * in flight, concurrency (in flight / limit) and the subscription's plan windows. Spent and in flight are the store's live
 * counters when the console has the store (local mode), else the Account's status as the operator
 * last wrote it (spent only; in flight unknown).
 */
import type { Account } from '../../../crds/schema/resources.js';
import { nanoToUsd } from './nano-to-usd.js';
import { readLive, type LiveCountersSource } from './live-key-counters.js';
import type { AccountStanding, SubscriptionStanding } from './usage-schemas.js';

export interface LiveAccountCounters {
  spentNano: number;
  reservedNano: number;
  inFlight: number;
}

/** Pure: a USD amount (up to 9 decimals) in nano-USD; null when absent or malformed. */
export function usdToNano(value: string | number | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  const match = /^(-?)(\d+)(?:\.(\d{1,9}))?$/.exec(String(value));
  if (match === null) return null;
  const nano = Number(match[2]) * 1_000_000_000 + Number((match[3] ?? '').padEnd(9, '0'));
  return match[1] === '-' ? -nano : nano;
}

/** Pure: the standing from the Account (absent: the namespace has none) and the live counters. */
export function accountStandingOf(
  namespace: string,
  account: Account | undefined,
  live: LiveAccountCounters | undefined,
): AccountStanding {
  const creditNano = usdToNano(account?.spec.creditUSD);
  const spentNano = live?.spentNano ?? usdToNano(account?.status?.spentUSD);
  const limit = account?.spec.maxConcurrentRequests;
  return {
    namespace,
    hasAccount: account !== undefined,
    displayName: account?.spec.displayName ?? null,
    creditUSD: creditNano === null ? null : nanoToUsd(creditNano),
    spentUSD: spentNano === null ? null : nanoToUsd(spentNano),
    balanceUSD: creditNano === null ? null : nanoToUsd(creditNano - (spentNano ?? 0)),
    spentFraction:
      creditNano === null
        ? null
        : creditNano > 0
          ? Math.min(1, Math.max(0, (spentNano ?? 0) / creditNano))
          : 1,
    reservedUSD: live === undefined ? null : nanoToUsd(live.reservedNano),
    inFlight: live?.inFlight ?? null,
    maxConcurrentRequests: limit === undefined || limit === 0 ? null : limit,
    source: live === undefined ? 'status' : 'store',
    subscription: subscriptionOf(account),
  };
}

/** Pure: the Account's subscription with the windows the operator last wrote; null: none. */
export function subscriptionOf(account: Account | undefined): SubscriptionStanding | null {
  const wanted = account?.spec.subscription;
  if (wanted === undefined) return null;
  const status = account?.status?.subscription;
  const current = status?.planName === undefined || status.planName === wanted.planName;
  return {
    planName: wanted.planName,
    startTime: wanted.startTime,
    endTime: wanted.endTime ?? null,
    state: current ? (status?.state ?? null) : null,
    windows: current
      ? (status?.windows ?? []).map((window) => ({
          name: window.name,
          usedUSD: window.usedUSD,
          capUSD: window.capUSD,
          resetTime: window.resetTime ?? null,
        }))
      : [],
  };
}

/** The store's live counters, or undefined without a store or while it is unreachable. */
export async function readLiveCounters(
  store: LiveCountersSource | undefined,
  options: { namespace: string; now: number },
): Promise<LiveAccountCounters | undefined> {
  return readLive(store, async (live) => {
    const [counters, inFlight] = await Promise.all([
      live.accountCounters(options.namespace),
      live.accountInFlight(options.namespace, options.now),
    ]);
    return { spentNano: counters.spentNano, reservedNano: counters.reservedNano, inFlight };
  });
}
