/**
 * One JSON document framing for the stream tap (a whole, non-streamed reply): the chunks are kept
 * as they come and the document is handed over once, parsed, when the source ended in full.
 */
import { Buffer } from 'node:buffer';
import type { FramingCodec, FramingDecoder, PayloadReceiver } from './framing-codec.js';
import { asBuffer } from './hold-bytes.js';

class JsonDocumentDecoder implements FramingDecoder {
  private chunks: Buffer[] = [];
  private held = 0;

  constructor(private readonly receiver: PayloadReceiver) {}

  feedSmall(chunk: Uint8Array): number {
    return this.feed(asBuffer(chunk));
  }

  feed(chunk: Buffer): number {
    this.chunks.push(chunk);
    this.held += chunk.length;
    return this.held;
  }

  overflow(): void {
    this.chunks = [];
  }

  passOver(): void {
    // Nothing reads the bytes any more.
  }

  end(): void {
    const whole = Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.receiver.deliverText(new TextDecoder('utf-8').decode(whole));
  }
}

export const jsonDocumentFramingCodec: FramingCodec = {
  createDecoder: (receiver) => new JsonDocumentDecoder(receiver),
};
