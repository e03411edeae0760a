/**
 * Counts generated text so output can be estimated when no usage arrives (a stream cut off, or an
 * upstream that reports none): about four characters per token, rounded up.
 */
export interface TextAccumulator {
  add(text: unknown): void;
  /** Adds characters counted elsewhere (read from raw JSON without parsing it). */
  addChars(count: number): void;
  readonly chars: number;
}

export function createTextAccumulator(): TextAccumulator {
  let chars = 0;
  return {
    add(text) {
      if (typeof text === 'string') chars += text.length;
    },
    addChars(count) {
      chars += count;
    },
    get chars() {
      return chars;
    },
  };
}

export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(Math.max(chars, 0) / 4);
}

export function estimateTokensFromBytes(bytes: number): number {
  return Math.ceil(Math.max(bytes, 0) / 4);
}
