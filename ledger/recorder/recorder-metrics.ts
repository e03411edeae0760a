/** The recorder's Prometheus metrics (prefix `tollgate_recorder_`) on the caller's registry. */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface RecorderMetrics {
  backlog: Gauge;
  lagSeconds: Gauge;
  batches: Counter;
  recordsInserted: Counter;
  recordsDuplicate: Counter;
  recordsRejected: Counter;
  failures: Counter<'stage'>;
  lastSuccess: Gauge;
}

export function createRecorderMetrics(registry: Registry): RecorderMetrics {
  const registers = [registry];
  return {
    backlog: new Gauge({
      name: 'tollgate_recorder_backlog_records',
      help: 'Usage records appended to the streams and not yet written to the ledger.',
      registers,
    }),
    lagSeconds: new Gauge({
      name: 'tollgate_recorder_lag_seconds',
      help: 'Age of the oldest usage record not yet written to the ledger (0 when none).',
      registers,
    }),
    batches: new Counter({
      name: 'tollgate_recorder_batches_total',
      help: 'Batches committed to the ledger and acknowledged.',
      registers,
    }),
    recordsInserted: new Counter({
      name: 'tollgate_recorder_records_inserted_total',
      help: 'Usage records inserted into the ledger.',
      registers,
    }),
    recordsDuplicate: new Counter({
      name: 'tollgate_recorder_records_duplicate_total',
      help: 'Usage records read again after a crash or retry and found in the ledger already.',
      registers,
    }),
    recordsRejected: new Counter({
      name: 'tollgate_recorder_records_rejected_total',
      help: 'Stream entries that are not valid usage records (kept in usage_rejected_entries).',
      registers,
    }),
    failures: new Counter({
      name: 'tollgate_recorder_failures_total',
      help: 'Failed attempts by stage (read, write, acknowledge, maintain); each is retried.',
      labelNames: ['stage'],
      registers,
    }),
    lastSuccess: new Gauge({
      name: 'tollgate_recorder_last_success_timestamp_seconds',
      help: 'When a batch was last committed and acknowledged.',
      registers,
    }),
  };
}
