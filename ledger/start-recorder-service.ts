/**
 * The recorder as a service: the loop that drains the usage streams into the ledger, the loop that
 * drains the store's captured bodies into it (when given `captures`), and the counter restore, on
 * one database and one metrics registry. `tollgate recorder` runs it against
 * Redis and PostgreSQL; `tollgate local` runs it in-process (memory queue or Redis, PGlite).
 */
import type { Registry } from 'prom-client';
import { runCounterRestorer, type RestoreStore } from './counters/restore-lost-counters.js';
import type { LedgerDatabase } from './ledger-database.js';
import type { RecordSource } from '../store/usage-record-source.js';
import { runRecorder, type RecorderStage } from './recorder/run-recorder.js';
import {
  runCaptureRecorder,
  type CaptureRecorderStage,
  type CaptureSource,
} from './recorder/run-capture-recorder.js';

export interface RecorderServiceLog {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

export interface RecorderServiceOptions {
  source: RecordSource;
  db: LedgerDatabase;
  store: RestoreStore;
  /** The store's capture hand-off, drained into `captured_calls` (docs/captures.md). */
  captures?: CaptureSource;
  registry: Registry;
  retentionDays: number;
  timeZone: string;
  log: RecorderServiceLog;
  batchSize?: number;
  /** Pause after a partial batch so the next gathers more (run-recorder.ts; default 0). */
  gatherMs?: number;
  /** How often the restore looks for lost counters (default 500 ms). */
  restoreEveryMs?: number;
}

export interface RecorderService {
  /** Ends both loops after the batch and the restore in progress. */
  stop(): Promise<void>;
}

export function startRecorderService(options: RecorderServiceOptions): RecorderService {
  const { log } = options;
  // A failure repeats on every retry while PostgreSQL or Redis is away: log the first of a run.
  let failing: RecorderStage | null = null;
  const recorder = runRecorder({
    source: options.source,
    db: options.db,
    registry: options.registry,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.gatherMs === undefined ? {} : { gatherMs: options.gatherMs }),
    maintenance: {
      everyMs: 3_600_000,
      daysAhead: 3,
      retentionDays: options.retentionDays,
      timeZone: options.timeZone,
    },
    onError: (error, stage) => {
      if (failing === stage) return;
      failing = stage;
      log.warn({ err: error, stage }, 'recorder: retrying (records wait in the stream)');
    },
  });
  let capturesFailing: CaptureRecorderStage | null = null;
  const captures =
    options.captures === undefined
      ? null
      : runCaptureRecorder({
          source: options.captures,
          db: options.db,
          registry: options.registry,
          onError: (error, stage) => {
            if (capturesFailing === stage) return;
            capturesFailing = stage;
            log.warn(
              { err: error, stage },
              'capture recorder: retrying (captures wait in the store)',
            );
          },
          onRejected: ({ id, reason }) => {
            log.warn({ id, reason }, 'capture recorder: dropped an entry that is no capture');
          },
        });
  const restorer = runCounterRestorer({
    store: options.store,
    timeZone: options.timeZone,
    db: options.db,
    registry: options.registry,
    ...(options.restoreEveryMs === undefined ? {} : { everyMs: options.restoreEveryMs }),
    onRestored: (namespace) => {
      log.info({ namespace }, 'spend counters restored from the ledger');
    },
    onError: (error) => {
      log.warn({ err: error }, 'counter restore failed; retrying');
    },
  });
  return {
    stop: async () => {
      await restorer.stop();
      await captures?.stop();
      await recorder.stop();
    },
  };
}
