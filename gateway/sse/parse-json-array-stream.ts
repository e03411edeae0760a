/**
 * Incremental parser for a JSON array streamed in pieces (Gemini `:streamGenerateContent` without
 * `alt=sse`: `[{…}` then `,{…}` … `]`). It scans bytes, so a chunk may end anywhere, including inside
 * a multi-byte character or a string escape; each complete top-level object (or array) is handed
 * over as one contiguous byte range (scalars between them are ignored). Every byte is looked at
 * once; an element split across chunks is copied, piece by piece, into one reused buffer.
 */
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

export function createJsonArrayScanner(onElement: ElementBytesHandler): JsonArrayScanner {
  const held = new HeldBytes();
  let started = false;
  let closed = false;
  let depth = 0;
  let inString = false;
  let escaped = false;

  const complete = (chunk: Buffer, from: number, end: number): void => {
    if (held.length === 0) {
      onElement(chunk, from, end);
      return;
    }
    held.append(chunk, from, end);
    const { buffer, length } = held;
    held.clear();
    onElement(buffer, 0, length);
  };

  return {
    get closed() {
      return closed;
    },
    get heldBytes() {
      return held.length;
    },
    discard() {
      held.release();
    },
    feed(chunk) {
      let elementStart = depth > 0 ? 0 : -1;
      for (let index = 0; index < chunk.length && !closed; index += 1) {
        const byte = chunk[index];
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
          continue;
        }
        if (!started) {
          if (byte === OPEN_BRACKET) started = true;
          continue;
        }
        if (depth === 0) {
          if (byte === CLOSE_BRACKET) closed = true;
          else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
            elementStart = index;
            depth = 1;
          }
          continue;
        }
        if (byte === QUOTE) inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          depth -= 1;
          if (depth === 0) {
            complete(chunk, elementStart, index + 1);
            elementStart = -1;
          }
        }
      }
      if (depth > 0 && elementStart !== -1) held.append(chunk, elementStart, chunk.length);
      return held.length;
    },
  };
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
