/**
 * Incremental parser for a JSON array streamed in pieces (Gemini `:streamGenerateContent` without
 * `alt=sse`: `[{…}` then `,{…}` … `]`). It scans bytes, so a chunk may end anywhere, including inside
 * a multi-byte character or a string escape; each complete top-level object (or array) is handed
 * over as one contiguous byte range (scalars between them are ignored). Every byte is looked at
 * once; an element split across chunks is copied, piece by piece, into one reused buffer.
 */
import { Buffer } from 'node:buffer';
import { HeldBytes } from './hold-bytes.js';

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Receives one element's bytes; the buffer is only valid during the call. */
export type ElementBytesHandler = (bytes: Buffer, start: number, end: number) => void;

export interface JsonArrayScanner {
  /** Feeds one chunk; returns the bytes then held for the element in progress. */
  feed(chunk: Buffer): number;
  /** True once the closing `]` of the outer array was seen. */
  readonly closed: boolean;
  /** Bytes held for the element in progress. */
  readonly heldBytes: number;
  discard(): void;
}

/** A class, not closures: one is made per stream (see `scan-server-sent-events.ts`). */
class ArrayScanner implements JsonArrayScanner {
  closed = false;
  private readonly held = new HeldBytes();
  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly onElement: ElementBytesHandler) {}

  get heldBytes(): number {
    return this.held.length;
  }

  discard(): void {
    this.held.release();
  }

  feed(chunk: Buffer): number {
    const { held } = this;
    const size = chunk.length;
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
    if (depth > 0 && elementStart !== -1) held.append(chunk, elementStart, size);
    return held.length;
  }

  private complete(chunk: Buffer, from: number, end: number): void {
    const { held } = this;
    if (held.length === 0) {
      this.onElement(chunk, from, end);
      return;
    }
    held.append(chunk, from, end);
    const { buffer, length } = held;
    held.clear();
    this.onElement(buffer, 0, length);
  }
}

export function createJsonArrayScanner(onElement: ElementBytesHandler): JsonArrayScanner {
  return new ArrayScanner(onElement);
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
