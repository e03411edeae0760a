/**
 * The tracing exporter's own metric (docs/observability.md), registered only when tracing is on:
 * spans dropped instead of exported, by reason (`queue_full`: the bounded queue was full;
 * `export_failed`: the collector refused or did not answer a batch in time).
 */
import { Counter, type Registry } from 'prom-client';

export interface TracingMetrics {
  droppedSpans: Counter<'reason'>;
}

/** The reasons of `tollgate_trace_spans_dropped_total`, at zero from the start. */
const DROP_REASONS = ['queue_full', 'export_failed'] as const;

export function createTracingMetrics(registry: Registry): TracingMetrics {
  const droppedSpans = new Counter({
    name: 'tollgate_trace_spans_dropped_total',
    help: 'Trace spans dropped instead of exported, by reason (queue_full, export_failed).',
    labelNames: ['reason'],
    registers: [registry],
  });
  // Both series exist before the first drop, so that rate() and the alert see it.
  for (const reason of DROP_REASONS) droppedSpans.inc({ reason }, 0);
  return { droppedSpans };
}
