/**
 * Streamed JSON array framing for the stream tap (Gemini `:streamGenerateContent` without
 * `alt=sse`): each element is one payload, found by `parse-json-array-stream.ts`; a sink that reads
 * elements in place takes them from their first byte (`PayloadSink.feedBytesPrefix`).
 */
import type { Buffer } from 'node:buffer';
import { createJsonArrayScanner, type JsonArrayScanner } from './parse-json-array-stream.js';
import { StreamTapBase, type FramingCodec, type TapSettings } from './stream-tap.js';

class JsonArrayTap<R> extends StreamTapBase<R> {
  private readonly elements: JsonArrayScanner;

  constructor(settings: TapSettings<R>) {
    super(settings);
    const { sink } = settings;
    this.elements = createJsonArrayScanner(
      (bytes, start, end) => {
        this.deliverBytes(bytes, start, end);
      },
      sink.feedBytesPrefix?.bind(sink) ?? null,
    );
    this.pieces = this.elements;
  }

  protected feed(chunk: Buffer): number {
    return this.elements.feed(chunk);
  }

  protected overflow(): void {
    this.elements.discard();
  }

  protected passOver(): void {
    // Nothing reads the bytes any more.
  }

  protected end(): void {
    // An element without its end is dropped.
  }
}

export const jsonArrayFramingCodec: FramingCodec = {
  createTap: (settings) => new JsonArrayTap(settings),
};
