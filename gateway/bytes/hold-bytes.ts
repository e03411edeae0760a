/**
 * The bytes of one event (or JSON element) in progress, copied out of the chunks it arrived in into
 * one buffer that is reused from event to event: a split event is joined once, by copying each piece
 * as it arrives, with no list of pieces and no allocation per piece. The buffer grows by doubling; one
 * grown past `KEEP_BYTES` is let go once its event is done, so a stream that once carried a large
 * event does not keep that much memory.
 */
import { Buffer } from 'node:buffer';
const FIRST_BYTES = 512;
const KEEP_BYTES = 64 * 1024;
/** Pieces up to this size are copied byte by byte (cheaper than a native copy for a few bytes). */
const SMALL_COPY = 32;
const EMPTY = Buffer.alloc(0);

/** A chunk as a `Buffer`, without a copy (a plain `Uint8Array` is wrapped). */
export function asBuffer(chunk: Uint8Array): Buffer {
  // Every Buffer's constructor is Buffer: one property read, far cheaper per piece than
  // `Buffer.isBuffer`. (`Buffer` is imported: the global one is a getter, called on every use.)
  return chunk.constructor === Buffer
    ? (chunk as Buffer)
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

export class HeldBytes {
  /** The buffer; its first `length` bytes are held. Only valid until the next append. */
  buffer: Buffer = EMPTY;
  length = 0;
  /** The buffer's size, kept as a plain number: a typed array's length is read per piece. */
  capacity = 0;

  append(source: Uint8Array, from: number, to: number): void {
    const size = to - from;
    if (this.length + size > this.capacity) this.grow(this.length + size);
    const buffer = this.buffer;
    if (size <= SMALL_COPY) {
      let length = this.length;
      for (let index = from; index < to; index += 1) {
        buffer[length] = source[index] ?? 0;
        length += 1;
      }
      this.length = length;
      return;
    }
    buffer.set(source.subarray(from, to), this.length);
    this.length += size;
  }

  /** Makes room for `size` more bytes (the buffer may be replaced). */
  reserve(size: number): void {
    if (this.length + size > this.capacity) this.grow(this.length + size);
  }

  /** Empties the hold (the buffer is kept for the next event unless it grew large). */
  clear(): void {
    this.length = 0;
    if (this.capacity > KEEP_BYTES) {
      this.buffer = EMPTY;
      this.capacity = 0;
    }
  }

  /** Empties the hold and lets the buffer go. */
  release(): void {
    this.length = 0;
    this.buffer = EMPTY;
    this.capacity = 0;
  }

  private grow(needed: number): void {
    let capacity = Math.max(this.capacity * 2, FIRST_BYTES);
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
    this.capacity = capacity;
  }
}
