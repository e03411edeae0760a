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

/** A class, not closures and a getter: one is made per stream. */
class TextCounter implements TextAccumulator {
  chars = 0;

  add(text: unknown): void {
    if (typeof text === 'string') this.chars += text.length;
  }

  addChars(count: number): void {
    this.chars += count;
  }
}

export function createTextAccumulator(): TextAccumulator {
  return new TextCounter();
}

export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(Math.max(chars, 0) / 4);
}

export function estimateTokensFromBytes(bytes: number): number {
  return Math.ceil(Math.max(bytes, 0) / 4);
}
