/**
 * One JSON document framing for the stream tap (a whole, non-streamed reply): the chunks are kept
 * as they come and the document is handed over once, parsed, when the source ended in full.
 */
import { Buffer } from 'node:buffer';
import { StreamTapBase, type FramingCodec } from './stream-tap.js';

class JsonDocumentTap<R> extends StreamTapBase<R> {
  private chunks: Buffer[] = [];
  private size = 0;

  protected feed(chunk: Buffer): number {
    this.chunks.push(chunk);
    this.size += chunk.length;
    return this.size;
  }

  protected overflow(): void {
    this.chunks = [];
  }

  protected passOver(): void {
    // Nothing reads the bytes any more.
  }

  protected end(): void {
    const whole = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.deliverText(new TextDecoder('utf-8').decode(whole));
  }
}

export const jsonDocumentFramingCodec: FramingCodec = {
  createTap: (settings) => new JsonDocumentTap(settings),
};
