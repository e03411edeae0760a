/**
 * Usage records (DESIGN.md 5.10) and the read API over them: per key today / 30 days / daily
 * breakdown; per account trend and model distribution; a filtered page of records.
 */
import type { Platform } from '../crds/schema/resources.js';

/** Disjoint token buckets (DESIGN.md 5.7); `reasoning` is an informational subset of `output`. */
export interface UsageBuckets {
  inputUncached: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
}

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
}

export interface DailyAggregate {
  /** `YYYY-MM-DD` in the deployment's time zone. */
  day: string;
  model: string;
  requests: number;
  usage: UsageBuckets;
  costNano: number;
  durationMs: number;
}

export interface RecordPageQuery {
  namespace: string;
  keyUid?: string;
  model?: string;
  fromTime?: number;
  toTime?: number;
  limit: number;
  /** Opaque cursor from the previous page. */
  cursor?: string;
}

export interface RecordPage {
  records: UsageRecord[];
  nextCursor: string | null;
}

export interface UsageQueries {
  /** Daily aggregates by model for one key, days inclusive. */
  keyDaily(
    namespace: string,
    keyUid: string,
    fromDay: string,
    toDay: string,
  ): Promise<DailyAggregate[]>;
  /** Daily aggregates by model for a whole account (namespace), days inclusive. */
  accountDaily(namespace: string, fromDay: string, toDay: string): Promise<DailyAggregate[]>;
  records(query: RecordPageQuery): Promise<RecordPage>;
  /** Removes records and aggregates older than the retention. */
  pruneUsage(namespace: string, olderThan: number): Promise<number>;
}
