/**
 * One JSON document framing for the stream tap (a whole, non-streamed reply): the chunks are kept
 * as they come and the document is handed over once, parsed, when the source ended in full.
 */
import { Buffer } from 'node:buffer';
import { StreamTapBase, type FramingCodec } from './stream-tap.js';

/**
 * One decoder for every document: `decode` without `stream` keeps nothing between calls. A
 * TextDecoder, not `toString`: it drops a leading byte order mark, as the parse has always seen it.
 */
const decoder = new TextDecoder('utf-8');

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
    // A reply read whole arrives as one chunk: read in place, not copied.
    const { chunks } = this;
    const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.size);
    this.chunks = [];
    this.deliverText(decoder.decode(whole));
  }
}

export const jsonDocumentFramingCodec: FramingCodec = {
  createTap: (settings) => new JsonDocumentTap(settings),
};
