import { describe, expect, it } from 'vitest';
import { createJsonArrayStreamParser } from './parse-json-array-stream.js';

const elements = [
  { candidates: [{ content: { parts: [{ text: 'a "quoted" ] } brace and \\ slash' }] } }] },
  { usageMetadata: { promptTokenCount: 3 }, text: 'snow ☃ and 🙂', nested: [[1], { a: [] }] },
  { candidates: [{ finishReason: 'STOP' }] },
];
const body = `[${elements.map((element) => JSON.stringify(element, null, 2)).join('\r\n,')}\n]`;

function feedAll(bytes: Uint8Array, cut: (index: number) => boolean) {
  const parser = createJsonArrayStreamParser();
  const out: string[] = [];
  let start = 0;
  for (let index = 1; index <= bytes.length; index += 1) {
    if (index === bytes.length || cut(index)) {
      out.push(...parser.feed(bytes.subarray(start, index)));
      start = index;
    }
  }
  return { values: out.map((text) => JSON.parse(text) as unknown), closed: parser.closed };
}

describe('createJsonArrayStreamParser', () => {
  it('returns each top-level element of a streamed array', () => {
    expect(feedAll(Buffer.from(body), () => false)).toEqual({ values: elements, closed: true });
  });

  it('is unaffected by where chunks are cut, including inside strings and characters', () => {
    const bytes = Buffer.from(body);
    for (let split = 1; split < bytes.length; split += 7) {
      expect(feedAll(bytes, (index) => index === split || index === split + 3).values).toEqual(
        elements,
      );
    }
    expect(feedAll(bytes, () => true).values).toEqual(elements);
  });

  it('gives the same elements when small pieces (read byte by byte) and large chunks alternate', () => {
    const tricky = [
      ...elements,
      { s: '\\', t: '\\\\"', u: '} ] { [', v: [[[]]], w: '\u00e9"' },
      [{ inner: 'an array element' }, 2],
    ];
    const text = `  [ ${tricky.map((element) => JSON.stringify(element, null, 1)).join(' , 7 , "x" ,')} ] trailing`;
    const bytes = Buffer.from(text);
    // Piece sizes around the small-piece limit (24 bytes), in cycles, from every starting offset;
    // scalars between the elements are skipped.
    for (const sizes of [[1], [3, 40], [24, 25], [7, 100, 2, 2], [30, 5]]) {
      for (let offset = 0; offset < 24; offset += 1) {
        const cuts = new Set<number>([offset]);
        for (let at = offset, step = 0; at < bytes.length; step += 1) {
          at += sizes[step % sizes.length] ?? 1;
          cuts.add(at);
        }
        const result = feedAll(bytes, (index) => cuts.has(index));
        expect(result).toEqual({ values: tricky, closed: true });
      }
    }
  });

  it('reports a cut-off array as not closed and keeps the complete elements', () => {
    const bytes = Buffer.from(body.slice(0, body.indexOf('STOP')));
    const result = feedAll(bytes, () => false);
    expect(result.closed).toBe(false);
    expect(result.values).toEqual(elements.slice(0, 2));
  });
});
