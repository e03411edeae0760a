/**
 * Metering metrics on the injected registry: settled requests, their duration and time to first
 * byte, tokens by bucket and cost, by platform, group, model and status class. The model label is
 * a price-table key, else `other`, so its values stay bounded; never a key id.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { UsageBuckets } from '../store/usage-records.js';
import { statusClass } from './gateway-metrics.js';

type Labels = 'platform' | 'group' | 'model' | 'status_class';

export interface MeteringMetrics {
  requests: Counter<Labels | 'accuracy'>;
  duration: Histogram<Labels>;
  timeToFirstByte: Histogram<Labels>;
  tokens: Counter<Labels | 'bucket'>;
  cost: Counter<Labels>;
}

export function createMeteringMetrics(registry: Registry): MeteringMetrics {
  const labelNames = ['platform', 'group', 'model', 'status_class'] as const;
  return {
    requests: new Counter({
      name: 'tollgate_settled_requests_total',
      help: 'Forwarded requests settled, by platform, group, model, status class and accuracy.',
      labelNames: [...labelNames, 'accuracy'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'tollgate_settled_request_duration_seconds',
      help: 'Admission to settlement of forwarded requests.',
      labelNames,
      buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
      registers: [registry],
    }),
    timeToFirstByte: new Histogram({
      name: 'tollgate_settled_time_to_first_byte_seconds',
      help: 'Upstream time to response headers of forwarded requests.',
      labelNames,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    tokens: new Counter({
      name: 'tollgate_tokens_total',
      help: 'Tokens billed, by bucket (reasoning is part of output).',
      labelNames: [...labelNames, 'bucket'],
      registers: [registry],
    }),
    cost: new Counter({
      name: 'tollgate_cost_usd_total',
      help: 'Cost billed in USD (after the group multiplier).',
      labelNames,
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

export function observeSettledRequest(metrics: MeteringMetrics, settled: SettledRequest): void {
  const labels = {
    platform: settled.platform,
    group: settled.group,
    model: settled.model,
    status_class: statusClass(settled.status),
  };
  metrics.requests.inc({ ...labels, accuracy: settled.accuracy });
  metrics.duration.observe(labels, settled.durationMs / 1000);
  if (settled.timeToFirstByteMs !== null) {
    metrics.timeToFirstByte.observe(labels, settled.timeToFirstByteMs / 1000);
  }
  for (const bucket of Object.keys(settled.usage) as (keyof UsageBuckets)[]) {
    const tokens = settled.usage[bucket];
    if (tokens > 0) metrics.tokens.inc({ ...labels, bucket }, tokens);
  }
  if (settled.costNano > 0) metrics.cost.inc(labels, settled.costNano / 1e9);
}
