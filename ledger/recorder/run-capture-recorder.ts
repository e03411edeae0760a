/**
 * The capture recorder: drains the store's capture hand-off (store/captured-call.ts) into
 * `captured_calls`, acknowledging a batch only after its commit. When PostgreSQL or the store is
 * away it keeps the batch and retries with doubling backoff; the captures wait in the store's
 * bounded queue meanwhile (beyond the bound the store drops the oldest, and the gateway counts
 * them). The insert is idempotent by request id, so a batch committed before a failed
 * acknowledgement, or read by two recorders, is stored once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Registry } from 'prom-client';
import type { CapturedCall, PendingCapture } from '../../store/captured-call.js';
import type { CaptureStore } from '../../store/store.js';
import { parseCapturedCallRow } from '../captured-call-row.js';
import { insertCapturedCalls } from '../insert-captured-calls.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { createCaptureRecorderMetrics } from './capture-recorder-metrics.js';

export type CaptureSource = Pick<CaptureStore, 'pendingCaptures' | 'ackCaptures'>;

export type CaptureRecorderStage = 'read' | 'write' | 'acknowledge';

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

export interface CaptureRecorder {
  /** Finishes the batch in progress (or abandons its retry) and ends the loop. */
  stop(): Promise<void>;
}

class StageError extends Error {
  constructor(
    readonly stage: CaptureRecorderStage,
    cause: unknown,
  ) {
    super(`capture recorder ${stage} failed`, { cause });
  }
}

async function inStage<T>(stage: CaptureRecorderStage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StageError(stage, error);
  }
}

export function runCaptureRecorder(options: CaptureRecorderOptions): CaptureRecorder {
  const { source, db } = options;
  const clock = options.clock ?? Date.now;
  const metrics = createCaptureRecorderMetrics(options.registry);
  const batchSize = options.batchSize ?? 100;
  const backoff = options.backoff ?? { initialMs: 200, maxMs: 10_000 };
  const stopping = new AbortController();

  const pause = (ms: number) =>
    sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);

  async function commit(batch: readonly PendingCapture[]): Promise<void> {
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
    const written = await inStage('write', () => insertCapturedCalls(db, { calls, now: clock() }));
    await inStage('acknowledge', () => source.ackCaptures(batch.map((pending) => pending.id)));
    metrics.written.inc(written.inserted);
    metrics.expired.inc(written.expired);
    metrics.duplicate.inc(calls.length - written.inserted - written.expired);
    metrics.rejected.inc(rejected);
  }

  async function loop(): Promise<void> {
    let batch: PendingCapture[] = [];
    let delay = backoff.initialMs;
    while (!stopping.signal.aborted) {
      try {
        if (batch.length === 0)
          batch = await inStage('read', () => source.pendingCaptures(batchSize));
        if (batch.length === 0) {
          await pause(options.idleMs ?? 500);
          continue;
        }
        // Kept until acknowledged: a failed write or acknowledgement is retried with the same batch.
        await commit(batch);
        batch = [];
        delay = backoff.initialMs;
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
