import { describe, expect, it } from 'vitest';
import { createJsonFieldReader } from './read-json-fields.js';
import { fieldRules } from './json-field-rules.js';
import { createJsonArrayScanner, createJsonArrayStreamParser } from './parse-json-array-stream.js';

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

describe('createJsonArrayScanner with an element prefix reader', () => {
  const walker = createJsonFieldReader(fieldRules.object({}), { counts: 0, captures: 0 });
  const tricky = [
    ...elements,
    { s: '\\', t: '\\\\"', u: '} ] { [', v: [[[]]], w: '\u00e9"' },
    [{ inner: 'an array element' }, 2],
    { a: 1 },
    {},
  ];
  const text = `[${tricky.map((element, index) => JSON.stringify(element, null, index % 2)).join(',\r\n')}]`;
  const bytes = Buffer.from(text);

  /** Every element, whether read by the prefix reader (which refuses every `refuse`-th offer) or handed over. */
  function elementsOf(cuts: number[], refuse: number): { values: unknown[]; read: number } {
    const values: unknown[] = [];
    let offers = 0;
    let read = 0;
    const scanner = createJsonArrayScanner(
      (chunk, start, end) => values.push(JSON.parse(chunk.toString('utf8', start, end))),
      (chunk, start, end) => {
        offers += 1;
        if (refuse > 0 && offers % refuse === 0) return -1;
        const stop = walker.readPrefix(chunk, start, end);
        if (stop !== -1) {
          read += 1;
          values.push(JSON.parse(chunk.toString('utf8', start, stop)));
        }
        return stop;
      },
    );
    let from = 0;
    for (const to of [...cuts, bytes.length]) {
      scanner.feed(bytes.subarray(from, to));
      from = to;
    }
    expect(scanner.closed).toBe(true);
    return { values, read };
  }

  it('gives the same elements, in order, at every piece size and split, read or handed over', () => {
    // Whole: every object is read by the prefix reader (the array element is handed over).
    expect(elementsOf([], 0)).toEqual({ values: tricky, read: 6 });
    for (const refuse of [0, 2, 3]) {
      for (let size = 1; size <= bytes.length; size += 1) {
        const cuts: number[] = [];
        for (let at = size; at < bytes.length; at += size) cuts.push(at);
        expect(elementsOf(cuts, refuse).values).toEqual(tricky);
      }
      for (let at = 1; at < bytes.length; at += 1) {
        expect(elementsOf([at], refuse).values).toEqual(tricky);
      }
    }
  });
});
