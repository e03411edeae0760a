/** The capture recorder's Prometheus metrics (prefix `tollgate_recorder_captures_`). */
import { Counter, type Registry } from 'prom-client';

export interface CaptureRecorderMetrics {
  written: Counter;
  duplicate: Counter;
  expired: Counter;
  rejected: Counter;
  failures: Counter<'stage'>;
}

/** The stages of `tollgate_recorder_captures_failed_total`, at zero from the start. */
const FAILURE_STAGES = ['read', 'write', 'acknowledge'] as const;

export function createCaptureRecorderMetrics(registry: Registry): CaptureRecorderMetrics {
  const registers = [registry];
  const metrics = {
    written: new Counter({
      name: 'tollgate_recorder_captures_written_total',
      help: 'Captured calls written to the ledger.',
      registers,
    }),
    duplicate: new Counter({
      name: 'tollgate_recorder_captures_duplicate_total',
      help: 'Captured calls read again (a retry, a second recorder) and found in the ledger already.',
      registers,
    }),
    expired: new Counter({
      name: 'tollgate_recorder_captures_expired_total',
      help: 'Captured calls whose retention had ended before they reached the ledger (not stored).',
      registers,
    }),
    rejected: new Counter({
      name: 'tollgate_recorder_captures_rejected_total',
      help: 'Hand-off entries that are not captures the ledger can hold (dropped).',
      registers,
    }),
    failures: new Counter({
      name: 'tollgate_recorder_captures_failed_total',
      help: 'Failed capture batches by stage (read, write, acknowledge); each is retried.',
      labelNames: ['stage'],
      registers,
    }),
  };
  // Every stage's series exists before its first failure, so that rate() and the alert see it.
  for (const stage of FAILURE_STAGES) metrics.failures.inc({ stage }, 0);
  return metrics;
}
