/**
 * The capture recorder: drains the store's capture hand-off (store/captured-call.ts) into
 * `captured_calls`, acknowledging a batch only after its commit. When PostgreSQL or the store is
 * away it keeps the batch and retries with doubling backoff; the captures wait in the store's
 * bounded queue meanwhile (beyond the bound the store drops the oldest, and the gateway counts
 * them). The insert is idempotent by request id, so a batch committed before a failed
 * acknowledgement, or read by two recorders, is stored once.
 */
import type { Registry } from 'prom-client';
import type { CapturedCall, PendingCapture } from '../../store/captured-call.js';
import type { CaptureStore } from '../../store/store.js';
import { parseCapturedCallRow } from '../captured-call-row.js';
import { insertCapturedCalls } from '../insert-captured-calls.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { drainInBatches, type Drain, type DrainStage } from './drain-in-batches.js';
import { createCaptureRecorderMetrics } from './capture-recorder-metrics.js';

export type CaptureSource = Pick<CaptureStore, 'pendingCaptures' | 'ackCaptures'>;

export type CaptureRecorderStage = DrainStage;

export interface CaptureRecorderOptions {
  source: CaptureSource;
  db: LedgerDatabase;
  registry: Registry;
  /** Captures per batch (default 100: bodies are up to `maxBytes` each). */
  batchSize?: number;
  /** Pause when the queue was empty (default 500 ms). */
  idleMs?: number;
  /** Retry delays after a failure: doubling from `initialMs` up to `maxMs` (200 ms, 10 s). */
  backoff?: { initialMs: number; maxMs: number };
  onError?: (error: unknown, stage: CaptureRecorderStage) => void;
  /** Tells a rejected entry (its request id when readable, and why); never its bodies. */
  onRejected?: (details: { id: string; reason: string }) => void;
  clock?: () => number;
}

/** `stop()` finishes the batch in progress (or abandons its retry) and ends the loop. */
export type CaptureRecorder = Drain;

export function runCaptureRecorder(options: CaptureRecorderOptions): CaptureRecorder {
  const { source, db } = options;
  const clock = options.clock ?? Date.now;
  const metrics = createCaptureRecorderMetrics(options.registry);

  async function write(batch: readonly PendingCapture[]) {
    const calls: CapturedCall[] = [];
    let rejected = 0;
    for (const pending of batch) {
      const parsed = parseCapturedCallRow(pending.call);
      if (parsed.ok) calls.push(parsed.call);
      else {
        rejected++;
        options.onRejected?.({ id: pending.id, reason: parsed.reason });
      }
    }
    const written = await insertCapturedCalls(db, { calls, now: clock() });
    return { ...written, offered: calls.length, rejected };
  }

  return drainInBatches({
    read: (count) => source.pendingCaptures(count),
    write,
    acknowledge: async (batch, written) => {
      await source.ackCaptures(batch.map((pending) => pending.id));
      metrics.written.inc(written.inserted);
      metrics.expired.inc(written.expired);
      metrics.duplicate.inc(written.offered - written.inserted - written.expired);
      metrics.rejected.inc(written.rejected);
    },
    batchSize: options.batchSize ?? 100,
    idleMs: options.idleMs ?? 500,
    gatherMs: 0,
    backoff: options.backoff ?? { initialMs: 200, maxMs: 10_000 },
    clock,
    onError: (error, stage) => {
      metrics.failures.inc({ stage });
      options.onError?.(error, stage);
    },
  });
}
