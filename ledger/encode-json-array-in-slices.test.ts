import { describe, expect, it } from 'vitest';
import { ENCODE_SLICE, encodeJsonArrayInSlices } from './encode-json-array-in-slices.js';

interface Item {
  id: string;
  note: string;
}

function itemsOf(count: number): Item[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `r-${String(index)}`,
    note: 'quotes " and \\ slashes',
  }));
}

const toJson = (item: Item) => ({ requestId: item.id, note: item.note });

describe('encodeJsonArrayInSlices', () => {
  it('writes the text JSON.stringify writes, for a short array and a long one', async () => {
    for (const count of [0, 3, ENCODE_SLICE, ENCODE_SLICE + 1, 1_234]) {
      const items = itemsOf(count);
      const text = await encodeJsonArrayInSlices(items, toJson);
      expect(text).toBe(JSON.stringify(items.map(toJson)));
    }
  });

  it('yields to the event loop between slices, and encodes the items it was given', async () => {
    const items = itemsOf(3 * ENCODE_SLICE);
    const expected = JSON.stringify(items.map(toJson));
    let finished = false;
    const pending = encodeJsonArrayInSlices(items, toJson).finally(() => (finished = true));
    items.length = 10;
    await new Promise((resume) => setImmediate(resume));
    expect(finished).toBe(false);
    expect(await pending).toBe(expected);
  });
});
