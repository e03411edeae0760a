/**
 * Incremental parser for a JSON array streamed in pieces (Gemini `:streamGenerateContent` without
 * `alt=sse`: `[{…}` then `,{…}` … `]`). It scans bytes, so a chunk may end anywhere, including inside
 * a multi-byte character or a string escape; each complete top-level object (or array) is handed
 * over as one contiguous byte range (scalars between them are ignored). Every byte is looked at
 * once; an element split across chunks is copied, piece by piece, into one reused buffer.
 */
import { Buffer } from 'node:buffer';
import { asBuffer, HeldBytes } from './hold-bytes.js';

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Pieces up to this size are scanned and copied in one pass (see `scanSmall`). */
const SMALL_CHUNK = 24;
/** 1 for the bytes that open or close a string, an object or an array, and the backslash. */
const SPECIAL = new Uint8Array(256);
for (const byte of [QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET]) {
  SPECIAL[byte] = 1;
}

/** Receives one element's bytes; the buffer is only valid during the call. */
export type ElementBytesHandler = (bytes: Buffer, start: number, end: number) => void;
/**
 * Offered an object element that starts at `start` in a large chunk, its end not found yet: reads
 * it if it can and returns where it ends (the scanner goes on from there and does not hand it
 * over), or -1 (the scanner finds its end and hands it over as usual).
 */
export type ElementPrefixReader = (bytes: Buffer, start: number, end: number) => number;

export interface JsonArrayScanner {
  /** Feeds one chunk; returns the bytes then held for the element in progress. */
  feed(chunk: Buffer): number;
  /** The same, for a piece of at most 24 bytes (which need not be a `Buffer`). */
  feedSmall(chunk: Uint8Array): number;
  /** True once the closing `]` of the outer array was seen. */
  readonly closed: boolean;
  /** Bytes held for the element in progress. */
  readonly heldBytes: number;
  discard(): void;
}

/**
 * A class, not closures: one is made per stream (see `scan-server-sent-events.ts`); its own hold,
 * as the SSE scanner is.
 */
class ArrayScanner extends HeldBytes implements JsonArrayScanner {
  closed = false;
  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly onElement: ElementBytesHandler,
    private readonly readElement: ElementPrefixReader | null,
  ) {
    super();
  }

  get heldBytes(): number {
    return this.length;
  }

  discard(): void {
    this.release();
  }

  feedSmall(chunk: Uint8Array): number {
    if (!this.started || this.closed) return this.feed(asBuffer(chunk));
    this.scanSmall(chunk, chunk.length);
    return this.length;
  }

  feed(chunk: Buffer): number {
    const size = chunk.length;
    if (size <= SMALL_CHUNK && this.started && !this.closed) {
      this.scanSmall(chunk, size);
      return this.length;
    }
    let { started, depth, inString, escaped, closed } = this;
    let elementStart = depth > 0 ? 0 : -1;
    let index = 0;
    while (index < size && !closed) {
      if (inString) {
        if (escaped) {
          escaped = false;
          index += 1;
        }
        // Straight to the next quote or backslash.
        while (index < size) {
          const byte = chunk[index];
          if (byte === QUOTE || byte === BACKSLASH) break;
          index += 1;
        }
        if (index >= size) break;
        if (chunk[index] === BACKSLASH) escaped = true;
        else inString = false;
        index += 1;
        continue;
      }
      if (depth > 0) {
        // Straight to the next quote, brace or bracket.
        while (index < size) {
          const next = chunk[index];
          if (
            next === QUOTE ||
            next === OPEN_BRACE ||
            next === CLOSE_BRACE ||
            next === OPEN_BRACKET ||
            next === CLOSE_BRACKET
          ) {
            break;
          }
          index += 1;
        }
        if (index >= size) break;
      }
      const byte = chunk[index];
      index += 1;
      if (!started) {
        if (byte === OPEN_BRACKET) started = true;
        continue;
      }
      if (depth === 0) {
        if (byte === CLOSE_BRACKET) closed = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          if (byte === OPEN_BRACE && this.readElement !== null) {
            // Whoever reads the element walks it anyway: its end is found on the way, and the
            // scan below is skipped. An element that does not end in this chunk, or is not read so,
            // is scanned as before.
            const end = this.readElement(chunk, index - 1, size);
            if (end !== -1) {
              index = end;
              continue;
            }
          }
          elementStart = index - 1;
          depth = 1;
        }
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) {
          this.complete(chunk, elementStart, index);
          elementStart = -1;
        }
      }
    }
    this.started = started;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.closed = closed;
    if (depth > 0 && elementStart !== -1) this.append(chunk, elementStart, size);
    return this.length;
  }

  /**
   * Byte by byte, for small pieces once the array has begun: each byte of an element is copied into
   * the hold as it is looked at (one pass, where the search and then the copy were two), and a
   * completed element is handed over from the hold. Same states as `feed`.
   */
  private scanSmall(chunk: Uint8Array, size: number): void {
    if (this.length + size > this.capacity) this.reserve(size);
    let buffer = this.buffer;
    let length = this.length;
    let { depth, inString } = this;
    let index = 0;
    if (this.escaped) {
      // The piece starts with the character after a backslash.
      this.escaped = false;
      buffer[length] = chunk[0] ?? 0;
      length += 1;
      index = 1;
    }
    // Every byte is copied as it is looked at; between elements the copies are dropped (an element
    // is copied again from its opening byte), so the common byte costs one copy and one test.
    for (; index < size; index += 1) {
      const byte = chunk[index] ?? 0;
      buffer[length] = byte;
      length += 1;
      // Letters, digits, blanks, `,` and `:` (below 0x5b once bit 5 is cleared) are none of `"`,
      // `\\`, `[`, `]`, `{`, `}`: two operations, no table.
      if (byte !== QUOTE && (byte & 0xdf) < OPEN_BRACKET) continue;
      if (SPECIAL[byte] === 0) continue;
      if (inString) {
        if (byte === QUOTE) inString = false;
        else if (byte === BACKSLASH) {
          // The escaped character is copied with it (or awaited in the next piece).
          index += 1;
          if (index === size) this.escaped = true;
          else {
            buffer[length] = chunk[index] ?? 0;
            length += 1;
          }
        }
        continue;
      }
      if (depth === 0) {
        // Between elements: only the start of the next one, or the end of the array, matters.
        if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          buffer[0] = byte;
          length = 1;
          depth = 1;
        } else if (byte === CLOSE_BRACKET) {
          this.closed = true;
          break;
        }
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) {
          this.length = length;
          this.clear();
          this.onElement(buffer, 0, length);
          length = 0;
          this.reserve(size - index);
          buffer = this.buffer;
        }
      }
    }
    this.length = depth === 0 ? 0 : length;
    this.depth = depth;
    this.inString = inString;
  }

  private complete(chunk: Buffer, from: number, end: number): void {
    if (this.length === 0) {
      this.onElement(chunk, from, end);
      return;
    }
    this.append(chunk, from, end);
    const { buffer, length } = this;
    this.clear();
    this.onElement(buffer, 0, length);
  }
}

/** `readElement`: see `ElementPrefixReader` (large chunks only; small pieces are held). */
export function createJsonArrayScanner(
  onElement: ElementBytesHandler,
  readElement: ElementPrefixReader | null = null,
): JsonArrayScanner {
  return new ArrayScanner(onElement, readElement);
}

export interface JsonArrayStreamParser {
  /** Feeds one chunk; returns the texts of the top-level elements it completed. */
  feed(chunk: Uint8Array): string[];
  /** True once the closing `]` of the outer array was seen. */
  readonly closed: boolean;
}

/** The same, with each element decoded to text. */
export function createJsonArrayStreamParser(): JsonArrayStreamParser {
  let elements: string[] = [];
  const scanner = createJsonArrayScanner((bytes, start, end) => {
    elements.push(bytes.toString('utf8', start, end));
  });
  return {
    get closed() {
      return scanner.closed;
    },
    feed(chunk) {
      scanner.feed(
        Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
      );
      const completed = elements;
      elements = [];
      return completed;
    },
  };
}
