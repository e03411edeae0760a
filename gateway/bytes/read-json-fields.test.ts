import { describe, expect, it } from 'vitest';
import { createJsonFieldReader, type PrefixMemoReader } from './read-json-fields.js';
import { fieldRules } from './json-field-rules.js';
import { createStringValueReader } from './read-json-string-value.js';

const TEXT = 0;
const MODEL = 0;
const reader = createJsonFieldReader(
  fieldRules.object({
    model: fieldRules.capture(MODEL),
    usage: fieldRules.bailUnlessNull(),
    error: fieldRules.bail(),
    parts: fieldRules.array(fieldRules.object({ text: fieldRules.count(TEXT) })),
  }),
  { counts: 1, captures: 1 },
);

/** What the rule tree reads, computed from the parsed document (undefined: the reader must refuse). */
function expected(text: string): { chars: number; model: string | undefined } | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return undefined;
  const fields = document as Record<string, unknown>;
  if ('error' in fields) return undefined;
  if ('usage' in fields && fields.usage !== null) return undefined;
  let chars = 0;
  for (const part of Array.isArray(fields.parts) ? (fields.parts as unknown[]) : []) {
    const value =
      typeof part === 'object' && part !== null && !Array.isArray(part)
        ? (part as Record<string, unknown>).text
        : undefined;
    if (typeof value === 'string') chars += value.length;
  }
  return { chars, model: JSON.stringify(fields.model) };
}

function read(text: string): { chars: number; model: string | undefined } | undefined {
  const bytes = Buffer.from(`  ${text}\n\n`);
  if (!reader.read(bytes, 2, bytes.length - 2)) return undefined;
  const start = reader.start(MODEL);
  const model = start === -1 ? undefined : bytes.toString('utf8', start, reader.end(MODEL));
  return {
    chars: reader.count(TEXT),
    model: model === undefined ? undefined : JSON.stringify(JSON.parse(model)),
  };
}

const documents = [
  '{}',
  '{"parts":[]}',
  '{"parts":[{"text":"hello"},{"text":""},{"other":"x"},{"text":5},"text",null]}',
  '{"model":"m-1","parts":[{"text":"h\\u00e9llo \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t"}]}',
  '{"parts":[{"text":"é ☃ 🙂 中文 \\ud83d\\ude00"}]}',
  ' { "parts" : [ { "text" : "spaced" } ] , "model" : { "a" : [1, 2.5, -3e+2, 0.1E-3, true, false, null] } } ',
  '{"usage":null,"parts":[{"text":"x"}]}',
  '{"usage":{"a":1},"parts":[{"text":"x"}]}',
  '{"error":null}',
  '{"parts":{"text":"not an array"}}',
  '{"nested":{"parts":[{"text":"not at the root"}]}}',
  '[{"parts":[{"text":"an array document"}]}]',
  '"a string document"',
  '{"parts":[{"text":"x"}]} trailing',
  '{"parts":[{"text":"x"}]',
  '{"parts":[{"text":"x"},]}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":-}',
  '{"a":1e}',
  '{"a":tru}',
  '{"a":nul}',
  '{"a":"\\x"}',
  '{"a":"\\u12G4"}',
  '{"a":"tab\there"}',
  '{a:1}',
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{"parts":[{"texts":"a key longer than a name"},{"tex":"shorter"},{"texT":"last byte"}]}',
  '{"modelx":"m","mode":"n","parts":[{"text":"ab"}],"model":"o"}',
  '{"parts":[{"text":"x"}],"model":"m"',
  '{"te\\u0078t":"escaped key"}',
  '{"parts":[{"te\\u0078t":"escaped key under a rule"}]}',
  '',
];

describe('createJsonFieldReader', () => {
  it.each(documents)('reads %s as JSON.parse and the readers would', (text) => {
    const outcome = read(text);
    const wanted = expected(text);
    if (outcome === undefined) {
      // Refusing is always allowed (the event is then parsed), except for plain valid documents.
      if (wanted !== undefined) expect(text).toMatch(/\\u0078/);
      return;
    }
    expect(outcome).toEqual(wanted);
  });

  it('refuses every cut-off prefix of a document and accepts the whole', () => {
    const text =
      '{"model":"m","parts":[{"text":"héllo 🙂"},{"text":"x\\"y"}],"n":[1.5e3,true,null]}';
    const bytes = Buffer.from(text);
    expect(reader.read(bytes, 0, bytes.length)).toBe(true);
    expect(reader.count(TEXT)).toBe('héllo 🙂'.length + 3);
    for (let end = 0; end < bytes.length; end += 1) {
      expect(reader.read(bytes, 0, end)).toBe(false);
    }
  });

  it('takes only plain names in rules (a name is matched byte for byte, up to its closing quote)', () => {
    for (const name of ['', 'a"b', 'a\\b', 'tab\there', 'é']) {
      expect(() => fieldRules.object({ [name]: fieldRules.skip() })).toThrow(/plain text/);
    }
  });

  it('refuses a document cut off inside or right after a key that is a name', () => {
    for (const text of ['{"model', '{"model"', '{"parts":[{"text', '{"parts":[{"text"']) {
      const bytes = Buffer.from(text);
      expect(reader.read(bytes, 0, bytes.length)).toBe(false);
    }
    // A quote just past the document's end (in the same buffer) does not close the key.
    const bytes = Buffer.from('{"model":"m"}');
    expect(reader.read(bytes, 0, 7)).toBe(false);
    expect(reader.read(bytes, 0, bytes.length)).toBe(true);
  });

  it('reads a document followed by anything (readPrefix) as read reads exactly its bytes', () => {
    const slots = () => ({
      chars: reader.count(TEXT),
      counted: reader.counted(TEXT),
      model: [reader.start(MODEL), reader.end(MODEL)],
    });
    for (const text of documents) {
      for (const after of [
        '',
        ' ',
        ',\r\n{"model":"n"}',
        '}',
        ']',
        '"',
        'x',
        '{"parts":[{"text":"y"}]}',
      ]) {
        const bytes = Buffer.from(`${text}${after}`);
        for (let end = 0; end <= bytes.length; end += 1) {
          const stop = reader.readPrefix(bytes, 0, end);
          if (stop === -1) {
            // Refused: the document does not end before `end` or is not read from its bytes.
            const trimmed = text.trimEnd();
            const size = Buffer.byteLength(trimmed);
            if (end >= size && reader.read(bytes, 0, size)) {
              expect({ text, after, end, stop }).toEqual({ text, after, end, stop: size });
            }
            continue;
          }
          const prefixSlots = slots();
          // Where it ends is where a valid object ends, and `read` of exactly those bytes agrees.
          expect(stop).toBeLessThanOrEqual(end);
          expect(bytes[stop - 1]).toBe(0x7d);
          expect(reader.read(bytes, 0, stop)).toBe(true);
          expect(slots()).toEqual(prefixSlots);
        }
      }
    }
  });

  it('refuses a counted string that is not well-formed UTF-8', () => {
    for (const bad of [[0xc3], [0xe2, 0x98], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x99], [0xff]]) {
      const bytes = Buffer.concat([
        Buffer.from('{"parts":[{"text":"a'),
        Buffer.from(bad),
        Buffer.from('"}]}'),
      ]);
      expect(reader.read(bytes, 0, bytes.length)).toBe(false);
    }
  });
});

/** Also records the place of the part that holds the counted text (open where a memo saves). */
const PART = 1;
const partReader = createJsonFieldReader(
  fieldRules.object({
    model: fieldRules.capture(MODEL),
    usage: fieldRules.bailUnlessNull(),
    parts: fieldRules.array(fieldRules.captureObject({ text: fieldRules.count(TEXT) }, PART)),
  }),
  { counts: 1, captures: 2 },
);

describe.each([
  ['reader', reader],
  ['reader capturing the part', partReader],
])("a prefix memo (one stream's events), %s", (_name, reader) => {
  /** Everything a read leaves: its answer and every slot, offsets relative to the document. */
  function outcome(bytes: Buffer, begin: number, end: number, memo: PrefixMemoReader | null) {
    const ok = (memo ?? reader).read(bytes, begin, end);
    const at = (offset: number) => (offset === -1 ? -1 : offset - begin);
    return {
      ok,
      chars: ok ? reader.count(TEXT) : null,
      counted: ok ? reader.counted(TEXT) : null,
      model: ok ? [at(reader.start(MODEL)), at(reader.end(MODEL))] : null,
      part: ok && reader === partReader ? [at(reader.start(PART)), at(reader.end(PART))] : null,
    };
  }

  const event = (text: string, model = 'm-1') =>
    `{"id":"c-1","model":"${model}","n":[1,true,null],"parts":[{"i":0,"text":"${text}"}],"usage":null,"more":[{"text":"b"}]}`;
  const stream = [
    event('hello'),
    event('hello'),
    event(''),
    event('h\u00e9 🙂'),
    event('x', 'm-2'),
    event('x', 'm-2'),
    '{"id":"c-1","model":"m-1","n":[1,true,null],"parts":[{"i":0,"text":"cut',
    '{"id":"c-1","model":"m-1","n":[1,true,null],"parts":[{"i":0,"text":',
    '{"id":"c-1","model":"m-1","n":[1,true,null],"parts":[{"i":0,"text":"',
    '{"id":"c-1","model":"m-1","n":[1,true,null],"parts":[{"i":0,"text":5}]}',
    '{"id":"c-1","model":"m-1","n":[1,true,null],"parts":[{"i":0,"text":"a"}],"usage":{"a":1}}',
    event('again'),
    ...documents,
  ];

  it('reads every document of a stream as a read without it does, wherever it sits', () => {
    const memo = reader.createPrefixMemo();
    for (const [index, text] of [...stream, ...stream].entries()) {
      const padding = ' '.repeat(index % 5);
      const bytes = Buffer.from(`${padding}${text}${padding}`);
      const end = bytes.length - padding.length;
      const without = outcome(bytes, padding.length, end, null);
      expect({ text, ...outcome(bytes, padding.length, end, memo) }).toEqual({ text, ...without });
    }
  });

  it('reads any change of an event after it as a read without it does', () => {
    const base = Buffer.from(event('hello'));
    const memo = reader.createPrefixMemo();
    for (let position = 0; position < base.length; position += 1) {
      for (const byte of [0x20, 0x22, 0x5c, 0x7d, 0x5d, 0x2c, 0x3a, 0x61, 0x30, 0xc3]) {
        const changed = Buffer.from(base);
        changed[position] = byte;
        for (const end of [changed.length, position + 1, position]) {
          expect(memo.read(base, 0, base.length)).toBe(true);
          const without = outcome(changed, 0, end, null);
          expect({ position, byte, end, ...outcome(changed, 0, end, memo) }).toEqual({
            position,
            byte,
            end,
            ...without,
          });
        }
      }
    }
  });

  it('keeps each stream apart: two memos of one reader, their events interleaved', () => {
    const memos = [reader.createPrefixMemo(), reader.createPrefixMemo()];
    for (let index = 0; index < 8; index += 1) {
      const stream = index % 2;
      const bytes = Buffer.from(event(`t${index}`, `m-${stream}`));
      const without = outcome(bytes, 0, bytes.length, null);
      expect(outcome(bytes, 0, bytes.length, memos[stream] ?? null)).toEqual(without);
      expect(without.model).not.toBeNull();
    }
  });
});

describe('createStringValueReader', () => {
  it('decodes string values, escapes included, and is undefined for other values', () => {
    const readString = createStringValueReader();
    const value = (text: string) => readString(Buffer.from(text), 0, Buffer.byteLength(text));
    expect(value('"gpt-4.1"')).toBe('gpt-4.1');
    expect(value('"gpt-4.1"')).toBe('gpt-4.1');
    expect(value('"g\\u00e9"')).toBe('gé');
    expect(value('""')).toBe('');
    expect(value('null')).toBeUndefined();
    expect(value('12')).toBeUndefined();
  });
});
