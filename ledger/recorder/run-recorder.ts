/**
 * The recorder loop: read a batch from the source, write it to the ledger in one transaction,
 * acknowledge it only after the commit. When PostgreSQL (or Redis) is unavailable it keeps the batch
 * and retries with exponential backoff; the records wait in the source meanwhile and the metrics
 * show the backlog, the lag and the failures. Entries left unacknowledged by a recorder that died
 * are claimed after `claimMinIdleMs`. It also keeps partitions created ahead and applies retention.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Registry } from 'prom-client';
import { applyRetention, DEFAULT_RETENTION_DAYS } from '../apply-retention.js';
import { createPartitionsAhead } from '../ensure-partitions.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { createRecorderMetrics } from './recorder-metrics.js';
import type { RecordSource, SourceEntry } from '../../store/usage-record-source.js';
import { writeEntries } from './write-entries.js';

export type RecorderStage = 'read' | 'write' | 'acknowledge' | 'maintain' | 'backlog';

export interface RecorderOptions {
  source: RecordSource;
  db: LedgerDatabase;
  registry: Registry;
  /** Entries per batch (default 500). */
  batchSize?: number;
  /** Pause when the source had nothing (default 200 ms). */
  idleMs?: number;
  /**
   * The read-to-read interval while the recorder keeps up (default 0: read again at once). After a
   * batch smaller than `batchSize` (the read took everything waiting) the loop waits until
   * `gatherMs` after that batch's read began, so the next batch gathers what arrives meanwhile.
   * After a full batch (it is behind) it reads again at once, so the backlog drains at full speed
   * and a record waits at most about `gatherMs` plus one batch's write while it keeps up. Each
   * batch has a fixed cost (a read and an acknowledgement per stream, the insert's planning and
   * commit): fewer, larger batches cost the recorder, Redis and PostgreSQL less per record.
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

export interface Recorder {
  /** Finishes the batch in progress (or abandons its retry) and ends the loop. */
  stop(): Promise<void>;
}

const DEFAULT_MAINTENANCE: RecorderMaintenance = {
  everyMs: 3_600_000,
  daysAhead: 3,
  retentionDays: DEFAULT_RETENTION_DAYS,
};

class StageError extends Error {
  constructor(
    readonly stage: RecorderStage,
    cause: unknown,
  ) {
    super(`recorder ${stage} failed`, { cause });
  }
}

async function inStage<T>(stage: RecorderStage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StageError(stage, error);
  }
}

export function runRecorder(options: RecorderOptions): Recorder {
  const { source, db } = options;
  const clock = options.clock ?? Date.now;
  const metrics = createRecorderMetrics(options.registry);
  const batchSize = options.batchSize ?? 500;
  const backoff = options.backoff ?? { initialMs: 200, maxMs: 10_000 };
  const maintenance =
    options.maintenance === false ? null : (options.maintenance ?? DEFAULT_MAINTENANCE);
  const stopping = new AbortController();
  const due = { claim: 0, backlog: 0, maintain: 0 };

  const pause = (ms: number) =>
    sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);

  async function refreshBacklog(now: number): Promise<void> {
    const backlog = await source.backlog();
    metrics.backlog.set(backlog.entries);
    metrics.lagSeconds.set(
      backlog.oldestTime === null ? 0 : Math.max(0, now - backlog.oldestTime) / 1000,
    );
  }

  async function housekeeping(): Promise<void> {
    const now = clock();
    if (now >= due.backlog) {
      due.backlog = now + (options.backlogEveryMs ?? 5_000);
      await inStage('backlog', () => refreshBacklog(now));
    }
    if (maintenance !== null && now >= due.maintain) {
      due.maintain = now + maintenance.everyMs;
      await inStage('maintain', async () => {
        await createPartitionsAhead(db, { now, daysAhead: maintenance.daysAhead });
        await applyRetention(db, {
          now,
          retentionDays: maintenance.retentionDays,
          ...(maintenance.timeZone === undefined ? {} : { timeZone: maintenance.timeZone }),
        });
      });
    }
  }

  async function nextBatch(): Promise<SourceEntry[]> {
    const now = clock();
    if (now >= due.claim) {
      due.claim = now + (options.claimEveryMs ?? 10_000);
      const claimed = await inStage('read', () =>
        source.claimStale({ minIdleMs: options.claimMinIdleMs ?? 60_000, count: batchSize }),
      );
      if (claimed.length > 0) return claimed;
    }
    return inStage('read', () => source.read(batchSize));
  }

  async function commit(batch: SourceEntry[]): Promise<void> {
    const written = await inStage('write', () => writeEntries(db, batch));
    await inStage('acknowledge', () => source.acknowledge(batch));
    metrics.batches.inc();
    metrics.recordsInserted.inc(written.inserted);
    metrics.recordsDuplicate.inc(written.duplicates);
    metrics.recordsRejected.inc(written.rejected);
    metrics.lastSuccess.set(clock() / 1000);
  }

  async function loop(): Promise<void> {
    const gatherMs = options.gatherMs ?? 0;
    let batch: SourceEntry[] = [];
    let delay = backoff.initialMs;
    let readAt = 0;
    while (!stopping.signal.aborted) {
      try {
        await housekeeping();
        if (batch.length === 0) {
          readAt = clock();
          batch = await nextBatch();
        }
        if (batch.length === 0) {
          await pause(options.idleMs ?? 200);
          continue;
        }
        // The batch is kept until acknowledged: a failed write or acknowledgement is retried
        // with the same entries (the insert is idempotent).
        await commit(batch);
        const partial = batch.length < batchSize;
        batch = [];
        delay = backoff.initialMs;
        if (partial && gatherMs > 0) {
          const wait = readAt + gatherMs - clock();
          if (wait > 0) await pause(wait);
        }
      } catch (error) {
        const stage = error instanceof StageError ? error.stage : 'read';
        metrics.failures.inc({ stage });
        options.onError?.(error instanceof StageError ? error.cause : error, stage);
        await pause(delay);
        delay = Math.min(delay * 2, backoff.maxMs);
      }
    }
  }

  const done = loop();
  return {
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
}
