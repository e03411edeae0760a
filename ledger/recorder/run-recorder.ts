/**
 * The usage recorder: drains the usage streams into the ledger (drain-in-batches.ts: one transaction
 * per batch, acknowledged after the commit, kept and retried while PostgreSQL or Redis is away; the
 * records wait in the source and the metrics show the backlog, the lag and the failures). Entries
 * left unacknowledged by a recorder that died are claimed after `claimMinIdleMs`. It also keeps
 * partitions created ahead and applies retention.
 */
import type { Registry } from 'prom-client';
import { applyRetention, DEFAULT_RETENTION_DAYS } from '../apply-retention.js';
import { createPartitionsAhead } from '../ensure-partitions.js';
import type { LedgerDatabase } from '../ledger-database.js';
import {
  drainInBatches,
  type Drain,
  type DrainStage,
  type PeriodicJob,
} from './drain-in-batches.js';
import { createRecorderMetrics } from './recorder-metrics.js';
import type { RecordSource, SourceEntry } from '../../store/usage-record-source.js';
import { writeEntries } from './write-entries.js';

export type RecorderStage = DrainStage | 'maintain' | 'backlog';

export interface RecorderOptions {
  source: RecordSource;
  db: LedgerDatabase;
  registry: Registry;
  /** Entries per batch (default 500). */
  batchSize?: number;
  /** Pause when the source had nothing (default 200 ms). */
  idleMs?: number;
  /**
   * The read-to-read interval while the recorder keeps up (default 0: read again at once), see
   * drain-in-batches.ts: fewer, larger batches cost the recorder, Redis and PostgreSQL less.
   */
  gatherMs?: number;
  /** Claim entries another consumer left unacknowledged this long (default 60 s). */
  claimMinIdleMs?: number;
  /** How often to look for such entries (default 10 s). */
  claimEveryMs?: number;
  /** Retry delays after a failure: doubling from `initialMs` up to `maxMs` (200 ms, 10 s). */
  backoff?: { initialMs: number; maxMs: number };
  /** How often the backlog and lag gauges are refreshed (default 5 s). */
  backlogEveryMs?: number;
  /**
   * Partitions ahead and retention, every `everyMs` (default hourly, 3 days ahead, 90 days; days
   * counted in `timeZone` when given, see apply-retention.ts).
   */
  maintenance?: RecorderMaintenance | false;
  onError?: (error: unknown, stage: RecorderStage) => void;
  clock?: () => number;
}

export interface RecorderMaintenance {
  everyMs: number;
  daysAhead: number;
  retentionDays: number;
  timeZone?: string;
}

/** `stop()` finishes the batch in progress (or abandons its retry) and ends the loop. */
export type Recorder = Drain;

const DEFAULT_MAINTENANCE: RecorderMaintenance = {
  everyMs: 3_600_000,
  daysAhead: 3,
  retentionDays: DEFAULT_RETENTION_DAYS,
};

export function runRecorder(options: RecorderOptions): Recorder {
  const { source, db } = options;
  const clock = options.clock ?? Date.now;
  const metrics = createRecorderMetrics(options.registry);
  let claimDue = 0;

  async function refreshBacklog(now: number): Promise<void> {
    const backlog = await source.backlog();
    metrics.backlog.set(backlog.entries);
    metrics.lagSeconds.set(
      backlog.oldestTime === null ? 0 : Math.max(0, now - backlog.oldestTime) / 1000,
    );
  }

  const jobs: PeriodicJob<'backlog' | 'maintain'>[] = [
    { stage: 'backlog', everyMs: options.backlogEveryMs ?? 5_000, run: refreshBacklog },
  ];
  const maintenance =
    options.maintenance === false ? null : (options.maintenance ?? DEFAULT_MAINTENANCE);
  if (maintenance !== null) {
    const { everyMs, daysAhead, ...retention } = maintenance;
    const run = async (now: number) => {
      await createPartitionsAhead(db, { now, daysAhead });
      await applyRetention(db, { now, ...retention });
    };
    jobs.push({ stage: 'maintain', everyMs, run });
  }

  async function nextBatch(count: number): Promise<SourceEntry[]> {
    const now = clock();
    if (now >= claimDue) {
      claimDue = now + (options.claimEveryMs ?? 10_000);
      const minIdleMs = options.claimMinIdleMs ?? 60_000;
      const claimed = await source.claimStale({ minIdleMs, count });
      if (claimed.length > 0) return claimed;
    }
    return source.read(count);
  }

  return drainInBatches({
    read: nextBatch,
    write: (batch) => writeEntries(db, batch),
    acknowledge: async (batch, written) => {
      await source.acknowledge(batch);
      metrics.batches.inc();
      metrics.recordsInserted.inc(written.inserted);
      metrics.recordsDuplicate.inc(written.duplicates);
      metrics.recordsRejected.inc(written.rejected);
      metrics.lastSuccess.set(clock() / 1000);
    },
    jobs,
    batchSize: options.batchSize ?? 500,
    idleMs: options.idleMs ?? 200,
    gatherMs: options.gatherMs ?? 0,
    backoff: options.backoff ?? { initialMs: 200, maxMs: 10_000 },
    clock,
    onError: (error, stage) => {
      metrics.failures.inc({ stage });
      options.onError?.(error, stage);
    },
  });
}
