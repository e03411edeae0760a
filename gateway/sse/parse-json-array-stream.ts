/**
 * Incremental parser for a JSON array streamed in pieces (Gemini `:streamGenerateContent` without
 * `alt=sse`: `[{…}` then `,{…}` … `]`). It scans bytes, so a chunk may end anywhere, including inside
 * a multi-byte character or a string escape; each complete top-level object is returned as text (scalars between them are ignored).
 */
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface JsonArrayStreamParser {
  /** Feeds one chunk; returns the texts of the top-level elements it completed. */
  feed(chunk: Uint8Array): string[];
  /** True once the closing `]` of the outer array was seen. */
  readonly closed: boolean;
}

export function createJsonArrayStreamParser(): JsonArrayStreamParser {
  const decoder = new TextDecoder('utf-8');
  let started = false;
  let closed = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pieces: Uint8Array[] = [];

  const finishElement = (elements: string[]): void => {
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const piece of pieces) {
      joined.set(piece, offset);
      offset += piece.length;
    }
    pieces = [];
    const text = decoder.decode(joined).trim();
    if (text !== '') elements.push(text);
  };

  return {
    get closed() {
      return closed;
    },
    feed(chunk) {
      const elements: string[] = [];
      let elementStart = -1;
      for (let index = 0; index < chunk.length && !closed; index += 1) {
        const byte = chunk[index] ?? 0;
        if (!started) {
          if (byte === OPEN_BRACKET) started = true;
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
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
            pieces.push(chunk.slice(Math.max(elementStart, 0), index + 1));
            elementStart = -1;
            finishElement(elements);
          }
        }
      }
      if (depth > 0) pieces.push(chunk.slice(Math.max(elementStart, 0)));
      return elements;
    },
  };
}
