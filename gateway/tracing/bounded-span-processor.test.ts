import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { BoundedSpanProcessor, type DropReason } from './bounded-span-processor.js';

/** A collector stand-in: records batches and answers each when told to (or at once). */
class ControlledExporter implements SpanExporter {
  readonly batches: ReadableSpan[][] = [];
  readonly #waiting: ((result: ExportResult) => void)[] = [];
  answer: 'hold' | 'ok' | 'fail' = 'ok';
  shutDown = false;

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.batches.push(spans);
    if (this.answer === 'hold') this.#waiting.push(done);
    else done({ code: this.answer === 'ok' ? ExportResultCode.SUCCESS : ExportResultCode.FAILED });
  }

  release(code: ExportResultCode): void {
    for (const done of this.#waiting.splice(0)) done({ code });
  }

  shutdown(): Promise<void> {
    this.shutDown = true;
    return Promise.resolve();
  }
}

function setUp(options: { maxQueueSize: number; maxBatchSize: number; sampler?: Sampler }) {
  const exporter = new ControlledExporter();
  const dropped: Record<DropReason, number> = { queue_full: 0, export_failed: 0 };
  const processor = new BoundedSpanProcessor({
    exporter,
    maxQueueSize: options.maxQueueSize,
    maxBatchSize: options.maxBatchSize,
    delayMs: 60_000,
    onDropped: (count, reason) => {
      dropped[reason] += count;
    },
  });
  const provider = new TracerProvider({
    sampler: options.sampler ?? new AlwaysOnSampler(),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('test');
  const endSpans = (count: number) => {
    for (let index = 0; index < count; index++) tracer.startSpan(`span ${index}`).end();
  };
  return { exporter, dropped, processor, endSpans };
}

describe('BoundedSpanProcessor', () => {
  it('sends a full batch at once and drops (counting) what finds the queue full', () => {
    const { exporter, dropped, endSpans } = setUp({ maxQueueSize: 4, maxBatchSize: 2 });
    exporter.answer = 'hold';
    endSpans(9);
    // Batch one (2 spans) is out and held; 4 wait; 3 found the queue full.
    expect(exporter.batches.map((batch) => batch.length)).toEqual([2]);
    expect(dropped).toEqual({ queue_full: 3, export_failed: 0 });
  });

  it('counts a failed batch and goes on with the next', async () => {
    const { exporter, dropped, endSpans, processor } = setUp({ maxQueueSize: 10, maxBatchSize: 2 });
    exporter.answer = 'hold';
    endSpans(4);
    exporter.release(ExportResultCode.FAILED);
    exporter.answer = 'ok';
    await processor.forceFlush();
    expect(exporter.batches.map((batch) => batch.length)).toEqual([2, 2]);
    expect(dropped).toEqual({ queue_full: 0, export_failed: 2 });
  });

  it('never queues an unsampled span', async () => {
    const { exporter, processor, endSpans } = setUp({
      maxQueueSize: 10,
      maxBatchSize: 1,
      sampler: new AlwaysOffSampler(),
    });
    endSpans(3);
    await processor.forceFlush();
    expect(exporter.batches).toEqual([]);
  });

  it('flushes a partial batch on shutdown, and drops the rest once the collector fails', async () => {
    const partial = setUp({ maxQueueSize: 10, maxBatchSize: 5 });
    partial.endSpans(3);
    expect(partial.exporter.batches).toEqual([]);
    await partial.processor.shutdown();
    expect(partial.exporter.batches.map((batch) => batch.length)).toEqual([3]);
    expect(partial.exporter.shutDown).toBe(true);

    const failing = setUp({ maxQueueSize: 10, maxBatchSize: 2 });
    failing.exporter.answer = 'hold';
    failing.endSpans(7);
    failing.exporter.answer = 'fail';
    const closed = failing.processor.shutdown();
    failing.exporter.release(ExportResultCode.FAILED);
    await closed;
    // The held batch failed while closing: the 5 queued are not tried batch after batch.
    expect(failing.exporter.batches.map((batch) => batch.length)).toEqual([2]);
    expect(failing.dropped).toEqual({ queue_full: 0, export_failed: 7 });
  });
});
