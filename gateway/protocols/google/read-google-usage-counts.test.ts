import { describe, expect, it } from 'vitest';
import { createGoogleResponseReader } from './convert-google-usage-metadata.js';
import { createJsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';

/**
 * The Gemini/Antigravity stream reader reads a `usageMetadata` snapshot's counts as the walker passes
 * them when they are plain integers, and keeps any other snapshot as text. Whatever the snapshot,
 * the report must be the one parsing every chunk gives.
 */
const chunk = (usage: string): string =>
  `{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"index":0}],"usageMetadata":${usage},"modelVersion":"gemini-x"}`;

const snapshots = [
  '{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15}',
  '{"promptTokenCount": 12 , "cachedContentTokenCount":4,"candidatesTokenCount":3,"thoughtsTokenCount":2,"toolUsePromptTokenCount":1,"totalTokenCount":18}',
  '{}',
  '{"promptTokenCount":0,"totalTokenCount":0}',
  '{"promptTokenCount":12,"promptTokenCount":7,"totalTokenCount":7}',
  '{"promptTokenCount":12,"promptTokenCount":null}',
  '{"promptTokenCount":null,"promptTokenCount":5}',
  '{"promptTokenCount":"12"}',
  '{"promptTokenCount":12.0,"totalTokenCount":12}',
  '{"promptTokenCount":1.5}',
  '{"promptTokenCount":-3}',
  '{"promptTokenCount":1e3}',
  '{"promptTokenCount":999999999999999,"totalTokenCount":999999999999999}',
  '{"promptTokenCount":12345678901234567890}',
  // Added up digit by digit, this one would round differently from `JSON.parse`.
  '{"promptTokenCount":13195020847679184250}',
  '{"promptTokenCount":{"a":1}}',
  '{"promptTokenCount":[1]}',
  '{"promptTokenCount":true}',
  '{"promptTokensDetails":[{"modality":"TEXT","tokenCount":12,"promptTokenCount":99}],"promptTokenCount":12}',
  '{"promptTokenCoun\\u0074":12}',
  '{"other":"\\u00e9","promptTokenCount":3}',
  'null',
  '12',
  '[]',
  '"text"',
];

// Two `usageMetadata` members in one chunk: the last one wins, with or without the counts of the first.
const doubled = [
  `{"usageMetadata":{"promptTokenCount":5,"totalTokenCount":5},"usageMetadata":{"candidatesTokenCount":2}}`,
  `{"usageMetadata":{"candidatesTokenCount":2},"usageMetadata":{"promptTokenCount":5}}`,
  `{"usageMetadata":{"promptTokenCount":5},"usageMetadata":null}`,
  `{"usageMetadata":null,"usageMetadata":{"promptTokenCount":5}}`,
];

function report(chunks: string[], how: ('bytes' | 'parsed')[], envelope: boolean) {
  const reader = createGoogleResponseReader({ envelope });
  chunks.forEach((text, index) => {
    const wrapped = envelope ? `{"response":${text},"traceId":"t"}` : text;
    const bytes = Buffer.from(`data: ${wrapped}\n\n`);
    const start = 6;
    const end = bytes.length - 2;
    if (how[index] === 'bytes' && reader.readBytes(bytes, start, end)) {
      // The reader must not keep a view of the bytes: they are reused for the next event.
      bytes.fill(0x20);
      return;
    }
    const parsed = JSON.parse(wrapped) as Record<string, unknown>;
    reader.read(envelope ? (parsed.response as Record<string, unknown>) : parsed);
  });
  return reader.result();
}

describe('reading usageMetadata counts from bytes', () => {
  const all = [...snapshots.map(chunk), ...doubled];

  it.each(all)('%s: the report every chunk parsed gives', (text) => {
    for (const envelope of [false, true]) {
      const parsed = report([text], ['parsed'], envelope);
      expect(report([text], ['bytes'], envelope)).toEqual(parsed);
    }
  });

  it('takes the last snapshot, whether it was read from bytes or parsed', () => {
    for (const first of all) {
      for (const second of [chunk(snapshots[0]!), chunk(snapshots[7]!), chunk(snapshots[2]!)]) {
        for (const envelope of [false, true]) {
          const parsed = report([first, second], ['parsed', 'parsed'], envelope);
          for (const how of [
            ['bytes', 'bytes'],
            ['bytes', 'parsed'],
            ['parsed', 'bytes'],
          ] as const) {
            expect(report([first, second], [...how], envelope)).toEqual(parsed);
          }
        }
      }
    }
  });
});

describe('fieldRules.captureObject', () => {
  it('captures any value, and reads an object value by its member rules', () => {
    const reader = createJsonFieldReader(
      fieldRules.object({
        usage: fieldRules.captureObject({ a: fieldRules.capture(1), t: fieldRules.count(0) }, 0),
      }),
      { counts: 1, captures: 2 },
    );
    const read = (text: string) => {
      const bytes = Buffer.from(text);
      if (!reader.read(bytes, 0, bytes.length)) return undefined;
      const slice = (slot: number) =>
        reader.start(slot) === -1
          ? null
          : bytes.toString('utf8', reader.start(slot), reader.end(slot));
      return { usage: slice(0), a: slice(1), t: reader.count(0) };
    };
    expect(read('{"usage":{"a":12,"t":"xyz","b":{"a":1}}}')).toEqual({
      usage: '{"a":12,"t":"xyz","b":{"a":1}}',
      a: '12',
      t: 3,
    });
    expect(read('{"usage":null}')).toEqual({ usage: 'null', a: null, t: 0 });
    expect(read('{"usage":[{"a":1}]}')).toEqual({ usage: '[{"a":1}]', a: null, t: 0 });
    // A key written with escapes in an object read by rules: left to the parser.
    expect(read('{"usage":{"\\u0061":1}}')).toBeUndefined();
    expect(() => fieldRules.captureObject({ 'a"': fieldRules.skip() }, 0)).toThrow(/plain text/);
  });
});
