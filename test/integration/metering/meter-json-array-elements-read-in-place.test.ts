import { describe, expect, it } from 'vitest';
import { readFixtureLines } from '../../support/replay-usage-fixture.js';
import { createStreamTap } from '../../../gateway/bytes/create-stream-tap.js';
import type { UsageAccumulator } from '../../../gateway/spec/usage-report.js';
import { USAGE_READERS } from '../../../gateway/protocols/registry.js';

/**
 * Gemini's streamed JSON array (and Antigravity's chunks framed the same way): an element that
 * arrives whole in a chunk is read where it lies, its end found by the reader (`feedBytesPrefix`),
 * not by the framing. The report must be the one every event parsed gives, however the array is cut
 * and whatever follows an element.
 */
type Format = 'gemini-generate-content' | 'antigravity';
const fixtures: [Format, string][] = [
  ['gemini-generate-content', 'gemini-text.chunks.txt'],
  ['gemini-generate-content', 'gemini-cut-off.chunks.txt'],
  ['gemini-generate-content', 'gemini-stream-error.chunks.txt'],
  ['antigravity', 'antigravity-text.chunks.txt'],
  ['antigravity', 'antigravity-cut-off.chunks.txt'],
];

function arrayOf(format: Format, fixture: string, indent: number, between: string): Buffer {
  const lines = readFixtureLines(
    new URL(`../../../gateway/protocols/${format}/__fixtures__/${fixture}`, import.meta.url),
  );
  const elements = lines.map((line) => JSON.stringify(JSON.parse(line), null, indent));
  return Buffer.from(`[${elements.join(between)}]`);
}

function parsingOnly(accumulator: UsageAccumulator): UsageAccumulator {
  return {
    feed: (payload) => {
      accumulator.feed(payload);
    },
    result: () => accumulator.result(),
  };
}

function meter(bytes: Buffer, sink: UsageAccumulator, cuts: number[]) {
  const tap = createStreamTap({ framing: 'json-array', sink });
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    tap.write(bytes.subarray(from, to));
    from = to;
  }
  return tap.finish({ sourceEnded: true });
}

const cases = fixtures.flatMap(([format, fixture]) =>
  [
    [2, ',\r\n'],
    [0, ','],
    [1, ' , 7 , "x" , '],
  ].map(([indent, between]) => ({
    format,
    fixture,
    name: `indent ${String(indent)}, ${JSON.stringify(between)}`,
    bytes: arrayOf(format, fixture, indent as number, between as string),
  })),
);

describe('reading JSON array elements in place', () => {
  it.each(cases)('$fixture ($name): the parsed report at every cut', ({ format, bytes }) => {
    const parsed = meter(bytes, parsingOnly(USAGE_READERS[format].stream()), []);
    expect(meter(bytes, USAGE_READERS[format].stream(), [])).toEqual(parsed);
    for (let at = 1; at < bytes.length; at += 1) {
      // One cut (an element split across two large chunks), and pieces of `at` bytes.
      const one = meter(bytes, USAGE_READERS[format].stream(), [at]);
      const cuts: number[] = [];
      for (let next = at; next < bytes.length; next += at) cuts.push(next);
      const many = meter(bytes, USAGE_READERS[format].stream(), cuts);
      if (JSON.stringify([one, many]) !== JSON.stringify([parsed, parsed])) {
        expect({ at, one, many }).toEqual({ at, one: parsed, many: parsed });
      }
    }
  });

  it('parses an Antigravity element that is not wrapped in a response (an error body)', () => {
    const bytes = Buffer.from(
      `[${JSON.stringify({ response: { candidates: [{ content: { parts: [{ text: 'hi' }] } }] } })},${JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })}]`,
    );
    const parsed = meter(bytes, parsingOnly(USAGE_READERS.antigravity.stream()), []);
    expect(parsed.result.error).toBe('RESOURCE_EXHAUSTED');
    expect(meter(bytes, USAGE_READERS.antigravity.stream(), [])).toEqual(parsed);
  });

  it('offers an element only once the array began, and never a scalar or an array element', () => {
    const offers: string[] = [];
    const sink = {
      ...parsingOnly(USAGE_READERS['gemini-generate-content'].stream()),
      feedBytesPrefix: (bytes: Uint8Array, start: number, end: number) => {
        offers.push(Buffer.from(bytes.subarray(start, end)).toString('utf8'));
        return -1;
      },
    };
    const tap = createStreamTap({ framing: 'json-array', sink });
    tap.write(Buffer.from('  [ 1, "x", [{"a":1}], {"b":2} , {"c":3}]  {"d":4}'));
    expect(offers).toEqual(['{"b":2} , {"c":3}]  {"d":4}', '{"c":3}]  {"d":4}']);
  });
});
