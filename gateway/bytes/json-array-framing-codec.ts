/**
 * Streamed JSON array framing for the stream tap (Gemini `:streamGenerateContent` without
 * `alt=sse`): each element is one payload, found by `parse-json-array-stream.ts`; a sink that reads
 * elements in place takes them from their first byte (`PayloadSink.feedBytesPrefix`).
 */
import type { Buffer } from 'node:buffer';
import type {
  FramingCodec,
  FramingDecoder,
  PayloadReceiver,
  PayloadSink,
} from './framing-codec.js';
import { createJsonArrayScanner, type JsonArrayScanner } from './parse-json-array-stream.js';

class JsonArrayDecoder implements FramingDecoder {
  private readonly elements: JsonArrayScanner;

  constructor(receiver: PayloadReceiver, sink: PayloadSink<unknown>) {
    this.elements = createJsonArrayScanner(
      (bytes, start, end) => {
        receiver.deliverBytes(bytes, start, end);
      },
      sink.feedBytesPrefix?.bind(sink) ?? null,
    );
  }

  feedSmall(chunk: Uint8Array): number {
    return this.elements.feedSmall(chunk);
  }

  feed(chunk: Buffer): number {
    return this.elements.feed(chunk);
  }

  overflow(): void {
    this.elements.discard();
  }

  passOver(): void {
    // Nothing reads the bytes any more.
  }

  end(): void {
    // An element without its end is dropped.
  }
}

export const jsonArrayFramingCodec: FramingCodec = {
  createDecoder: (receiver, sink) => new JsonArrayDecoder(receiver, sink),
};
