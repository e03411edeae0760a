/**
 * Reads a JSON string value found by the field walker (`read-json-fields.ts`) to text, remembering
 * the last few: a model name or event type repeated on every event is neither decoded nor copied
 * again (pure, apart from that memory).
 */
import { Buffer } from 'node:buffer';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** How many distinct values a string value reader remembers (event types, model names). */
const REMEMBERED_STRINGS = 8;

/**
 * Reads a captured JSON string value to text, remembering the last few: the same bytes again (a
 * model name or event type repeated on every event) are neither decoded nor copied again.
 * Undefined when the value is not a string.
 */
export function createStringValueReader(): (
  bytes: Uint8Array,
  start: number,
  end: number,
) => string | undefined {
  const known: Buffer[] = [];
  const texts: string[] = [];
  let next = 0;
  return (bytes, start, end) => {
    if (bytes[start] !== QUOTE || end - start < 2) return undefined;
    const size = end - start;
    for (let index = 0; index < known.length; index += 1) {
      const candidate = known[index];
      if (candidate?.length !== size) continue;
      let same = true;
      for (let offset = 1; offset < size - 1 && same; offset += 1) {
        same = candidate[offset] === bytes[start + offset];
      }
      if (same) return texts[index];
    }
    const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, size);
    const text = view.includes(BACKSLASH)
      ? (JSON.parse(view.toString('utf8')) as string)
      : view.toString('utf8', 1, size - 1);
    known[next] = Buffer.from(view);
    texts[next] = text;
    next = (next + 1) % REMEMBERED_STRINGS;
    return text;
  };
}
