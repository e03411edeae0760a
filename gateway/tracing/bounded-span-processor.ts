/**
 * Batches ended spans for the exporter, off the request path: `onEnd` only appends to a bounded
 * queue (a sampled span; an unsampled one is never queued). A batch goes out when the queue holds a
 * batch's worth or `delayMs` after the first span queued, one export at a time. A span that finds
 * the queue full is dropped, and so is a batch the exporter failed to deliver (collector down, slow
 * past its timeout); both are counted through `onDropped`, never waited for and never thrown. The
 * OpenTelemetry SDK's BatchSpanProcessor has the same shape but reports drops only to its own
 * logger; the count is what an operator alerts on (`tollgate_trace_spans_dropped_total`).
 */
import { TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

export type DropReason = 'queue_full' | 'export_failed';

export interface BoundedSpanProcessorOptions {
  exporter: SpanExporter;
  /** Ended spans waiting for export at most. */
  maxQueueSize: number;
  /** Spans per export request at most. */
  maxBatchSize: number;
  /** Longest wait before a partial batch goes out. */
  delayMs: number;
  onDropped: (count: number, reason: DropReason) => void;
}

export class BoundedSpanProcessor implements SpanProcessor {
  readonly #options: BoundedSpanProcessorOptions;
  #queue: ReadableSpan[] = [];
  #exporting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #closing = false;

  constructor(options: BoundedSpanProcessorOptions) {
    this.#options = options;
  }

  onStart(): void {
    // Nothing at start: spans are queued when they end.
  }

  onEnd(span: ReadableSpan): void {
    if (this.#closed || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.#queue.length >= this.#options.maxQueueSize) {
      this.#options.onDropped(1, 'queue_full');
      return;
    }
    this.#queue.push(span);
    this.#schedule();
  }

  /** Exports everything queued, batch after batch. */
  async forceFlush(): Promise<void> {
    this.#clearTimer();
    while (this.#exporting !== null || this.#queue.length > 0) {
      await (this.#exporting ?? this.#exportBatch());
    }
  }

  /**
   * Exports what is queued and stops the exporter. Once an export fails while closing, the rest is
   * dropped (and counted) rather than tried batch after batch: the close takes one export timeout
   * at most.
   */
  async shutdown(): Promise<void> {
    if (this.#closed || this.#closing) return;
    this.#closing = true;
    await this.forceFlush();
    this.#closed = true;
    await this.#options.exporter.shutdown();
  }

  #schedule(): void {
    if (this.#exporting !== null) return;
    if (this.#queue.length >= this.#options.maxBatchSize) {
      this.#clearTimer();
      void this.#exportBatch();
      return;
    }
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#exporting === null) void this.#exportBatch();
    }, this.#options.delayMs);
    // A gateway with nothing else to do exits without waiting for the next batch.
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One export request; resolves when the exporter answered (it never rejects). */
  #exportBatch(): Promise<void> {
    const batch = this.#queue.splice(0, this.#options.maxBatchSize);
    const exported = new Promise<void>((done) => {
      if (batch.length === 0) {
        done();
        return;
      }
      this.#options.exporter.export(batch, (result: ExportResult) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          this.#options.onDropped(batch.length, 'export_failed');
          if (this.#closing && this.#queue.length > 0) {
            this.#options.onDropped(this.#queue.length, 'export_failed');
            this.#queue = [];
          }
        }
        done();
      });
    });
    this.#exporting = exported.then(() => {
      this.#exporting = null;
      if (this.#queue.length > 0 && !this.#closed) this.#schedule();
    });
    return this.#exporting;
  }
}
