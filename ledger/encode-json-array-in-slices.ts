/**
 * A JSON array encoded a slice of items at a time, yielding to the event loop between slices: in
 * `tollgate local` the recorder shares its thread with the gateway, and a whole batch of records
 * (about 1.4 kB of JSON each) encoded in one go held that thread for milliseconds.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Items encoded between two turns of the event loop. */
export const ENCODE_SLICE = 250;

/**
 * `JSON.stringify(items.map(toJson))`, the same text, with a turn of the event loop between two
 * slices of `ENCODE_SLICE` items (none for a short array). The items are taken when called; each is
 * mapped when its slice is encoded.
 */
export async function encodeJsonArrayInSlices<T>(
  items: readonly T[],
  toJson: (item: T) => unknown,
): Promise<string> {
  if (items.length <= ENCODE_SLICE) return JSON.stringify(items.map(toJson));
  const taken = [...items];
  const parts: string[] = [];
  for (let start = 0; start < taken.length; start += ENCODE_SLICE) {
    if (start > 0) await nextTurn();
    parts.push(JSON.stringify(taken.slice(start, start + ENCODE_SLICE).map(toJson)).slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}
