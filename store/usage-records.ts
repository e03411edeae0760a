/**
 * Usage records (DESIGN.md 5.10): one per settled request, appended by the settlement to the
 * account's usage stream and written by the recorder into the ledger (ledger/), which answers every
 * usage query. A quota reset is appended to the same stream, so the ledger knows when each key's
 * quota restarted.
 */
import type { Platform } from '../crds/schema/resources.js';
import type { UsageBuckets } from './usage-buckets.js';

export type { UsageBuckets } from './usage-buckets.js';

export interface UsageRecord {
  requestId: string;
  time: number;
  namespace: string;
  accountUid: string;
  keyUid: string;
  keyName: string;
  group: string;
  upstream: string | null;
  platform: Platform;
  model: string;
  upstreamModel: string;
  usage: UsageBuckets;
  costNano: number;
  priceVersion: string;
  multiplier: string;
  durationMs: number;
  timeToFirstByteMs: number | null;
  status: number;
  stream: boolean;
  /** `exact` when the upstream reported usage; `estimated` when it was derived from the text. */
  accuracy: 'exact' | 'estimated' | 'none';
  /** Invariant violations found while normalising (logged too). */
  flags: string[];
  /**
   * Upstream attempts (failover): 1 when the first upstream served, more when earlier ones failed
   * before the first byte (only the serving attempt is billed), 0 when nothing was sent upstream.
   * Absent in records written before failover.
   */
  attempts?: number;
  /** The key's owner (ApiKey `spec.owner`, member budgets); absent for keys without one. */
  owner?: string;
}

/**
 * The flag of a token-counting call's record (`/v1/messages/count_tokens`, `:countTokens`): free,
 * nothing generated; the ledger keeps it out of the request totals (docs/ledger.md).
 */
export const TOKEN_COUNT_FLAG = 'token-count';

/** A record as the stream carries it: with the time the counters were charged. */
export interface SettledRecord extends UsageRecord {
  /** Epoch ms of the settlement (or the sweep of an expired lease): spend windows open then. */
  chargedAt: number;
}

/** A quota reset as the stream carries it (`type` tells it from a usage record). */
export interface QuotaResetEvent {
  type: 'quotaReset';
  namespace: string;
  keyUid: string;
  token: string;
  /** Epoch ms of the reset: the key's quota counts the charges from then on. */
  time: number;
}

export function isQuotaResetEvent(value: unknown): value is QuotaResetEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'quotaReset'
  );
}

/**
 * A usage record as a lease carries it, prepared at admission: the store adds `accountUid` and
 * `durationMs` when it charges the lease (store.ts `LeaseCharge`, record-json.ts).
 */
export type LeaseRecord = Omit<UsageRecord, 'accountUid' | 'durationMs'>;
