/** The capture recorder's Prometheus metrics (prefix `tollgate_recorder_captures_`). */
import { Counter, type Registry } from 'prom-client';

export interface CaptureRecorderMetrics {
  written: Counter;
  duplicate: Counter;
  expired: Counter;
  rejected: Counter;
  failures: Counter<'stage'>;
}

export function createCaptureRecorderMetrics(registry: Registry): CaptureRecorderMetrics {
  const registers = [registry];
  return {
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
}
