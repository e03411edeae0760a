/**
 * Metering metrics on the injected registry: settled requests, their duration and time to first
 * byte, tokens by bucket and cost, by platform, group, model and status class. The model label is
 * a price-table key, else `other`, so its values stay bounded; never a key id. Also the health of
 * settlement itself: settlements waiting for the store, failed attempts and hand-overs by reason,
 * and expired leases charged as estimated records.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { KeyedCounter, KeyedHistogram, type LabelSet } from './keyed-metrics.js';
import { USAGE_BUCKETS, type UsageBuckets } from '../../store/usage-buckets.js';
import { statusClass } from './gateway-metrics.js';

type Labels = 'platform' | 'group' | 'model' | 'status_class';

export interface MeteringMetrics {
  requests: KeyedCounter<Labels | 'accuracy'>;
  duration: KeyedHistogram<Labels>;
  timeToFirstByte: KeyedHistogram<Labels>;
  tokens: KeyedCounter<Labels | 'bucket'>;
  cost: KeyedCounter<Labels>;
  /** Settlements submitted and not yet confirmed by the store (first attempt or retrying). */
  pendingSettlements: Gauge;
  /** Failed settlement attempts: `store_unavailable`, `store_error`. */
  settlementFailures: Counter<'reason'>;
  /**
   * Settlements given up and left to their lease, which charges the reservation as an estimated
   * record: `retry_window_ended`, `queue_full`, `shutdown`.
   */
  settlementsHandedOver: Counter<'reason'>;
  /** Expired unsettled leases this gateway's sweep charged. */
  expiredLeasesCharged: Counter;
}

/** A settled call's label sets, made once per platform, group, model and status class. */
interface SettledLabelSets {
  /** Duration, time to first byte and cost (the same label names in the same order). */
  call: LabelSet<Labels>;
  requests: Map<string, LabelSet<Labels | 'accuracy'>>;
  /** Per usage bucket, made when the bucket first has tokens (a series appears only then). */
  tokens: Map<string, LabelSet<Labels | 'bucket'>>;
}

/**
 * Each metrics object's label sets, by their values joined: bounded as its series are (the model
 * label is a price-table key or `other`).
 */
const labelSetsOf = new WeakMap<MeteringMetrics, Map<string, SettledLabelSets>>();

export function createMeteringMetrics(registry: Registry): MeteringMetrics {
  const labelNames = ['platform', 'group', 'model', 'status_class'] as const;
  return {
    requests: new KeyedCounter({
      name: 'tollgate_settled_requests_total',
      help: 'Forwarded requests settled, by platform, group, model, status class and accuracy.',
      labelNames: [...labelNames, 'accuracy'],
      registers: [registry],
    }),
    duration: new KeyedHistogram({
      name: 'tollgate_settled_request_duration_seconds',
      help: 'Admission to settlement of forwarded requests.',
      labelNames,
      buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
      registers: [registry],
    }),
    timeToFirstByte: new KeyedHistogram({
      name: 'tollgate_settled_time_to_first_byte_seconds',
      help: 'Upstream time to response headers of forwarded requests.',
      labelNames,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    tokens: new KeyedCounter({
      name: 'tollgate_tokens_total',
      help: 'Tokens billed, by bucket (reasoning is part of output).',
      labelNames: [...labelNames, 'bucket'],
      registers: [registry],
    }),
    cost: new KeyedCounter({
      name: 'tollgate_cost_usd_total',
      help: 'Cost billed in USD (after the group multiplier).',
      labelNames,
      registers: [registry],
    }),
    pendingSettlements: new Gauge({
      name: 'tollgate_pending_settlements',
      help: 'Settlements not yet confirmed by the store (first attempt in flight or retrying).',
      registers: [registry],
    }),
    settlementFailures: new Counter({
      name: 'tollgate_settlement_failures_total',
      help: 'Failed settlement attempts, by reason (store_unavailable, store_error).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    settlementsHandedOver: new Counter({
      name: 'tollgate_settlements_handed_over_total',
      help:
        'Settlements given up and left to lease expiry (charged as estimated), by reason ' +
        '(retry_window_ended, queue_full, shutdown).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    expiredLeasesCharged: new Counter({
      name: 'tollgate_expired_leases_charged_total',
      help: 'Unsettled leases that ended and were charged their reservation by the lease sweep.',
      registers: [registry],
    }),
  };
}

export interface SettledRequest {
  platform: string;
  group: string;
  model: string;
  status: number;
  accuracy: string;
  durationMs: number;
  timeToFirstByteMs: number | null;
  usage: UsageBuckets;
  costNano: number;
}

function settledLabelSets(metrics: MeteringMetrics, settled: SettledRequest): SettledLabelSets {
  const status = statusClass(settled.status);
  const key = `${settled.platform}\u0001${settled.group}\u0001${settled.model}\u0001${status}`;
  let byKey = labelSetsOf.get(metrics);
  if (byKey === undefined) {
    byKey = new Map();
    labelSetsOf.set(metrics, byKey);
  }
  let sets = byKey.get(key);
  if (sets === undefined) {
    const labels = {
      platform: settled.platform,
      group: settled.group,
      model: settled.model,
      status_class: status,
    };
    sets = { call: metrics.duration.labelSet(labels), requests: new Map(), tokens: new Map() };
    byKey.set(key, sets);
  }
  return sets;
}

/** Records one settled call: one lookup finds its label sets, none is built per metric. */
export function observeSettledRequest(metrics: MeteringMetrics, settled: SettledRequest): void {
  const sets = settledLabelSets(metrics, settled);
  const { call } = sets;
  let requests = sets.requests.get(settled.accuracy);
  if (requests === undefined) {
    requests = metrics.requests.labelSet({ ...call.labels, accuracy: settled.accuracy });
    sets.requests.set(settled.accuracy, requests);
  }
  metrics.requests.incIn(requests);
  metrics.duration.observeIn(call, settled.durationMs / 1000);
  if (settled.timeToFirstByteMs !== null) {
    metrics.timeToFirstByte.observeIn(call, settled.timeToFirstByteMs / 1000);
  }
  for (const bucket of USAGE_BUCKETS) {
    const tokens = settled.usage[bucket];
    if (tokens <= 0) continue;
    let set = sets.tokens.get(bucket);
    if (set === undefined) {
      set = metrics.tokens.labelSet({ ...call.labels, bucket });
      sets.tokens.set(bucket, set);
    }
    metrics.tokens.incIn(set, tokens);
  }
  if (settled.costNano > 0) metrics.cost.incIn(call, settled.costNano / 1e9);
}
