/**
 * Upstream pool metrics (docs/upstream-pools.md), on the gateway's registry. Label values come from
 * bounded sets: upstream names (the Upstream resources), platforms, attempt outcomes and reasons.
 */
import { Counter, type Registry } from 'prom-client';
import { KeyedCounter } from './keyed-metrics.js';

export interface UpstreamMetrics {
  /** Every attempt at an upstream, by its outcome (classify-attempt.ts). */
  attempts: KeyedCounter<'upstream' | 'platform' | 'outcome'>;
  /** Attempts that failed over to the next upstream: the upstream left and why. */
  failovers: Counter<'upstream' | 'reason'>;
  /** Cool-downs and circuit opens this gateway started: rate_limited, overloaded, circuit_open. */
  cooldowns: Counter<'upstream' | 'reason'>;
}

export function createUpstreamMetrics(registry: Registry): UpstreamMetrics {
  return {
    attempts: new KeyedCounter({
      name: 'tollgate_upstream_attempts_total',
      help: 'Upstream attempts by outcome (ok, connect_error, timeout, status_429, status_529, status_5xx, status_4xx, first_output_timeout, no_output, stream_error, stream_idle_timeout).',
      labelNames: ['upstream', 'platform', 'outcome'],
      registers: [registry],
    }),
    failovers: new Counter({
      name: 'tollgate_upstream_failovers_total',
      help: 'Requests that left an upstream for the next one of the group, by the upstream left and the reason.',
      labelNames: ['upstream', 'reason'],
      registers: [registry],
    }),
    cooldowns: new Counter({
      name: 'tollgate_upstream_cooldowns_total',
      help: 'Cool-downs (rate_limited, overloaded) and circuit opens (circuit_open) started by this gateway.',
      labelNames: ['upstream', 'reason'],
      registers: [registry],
    }),
  };
}
