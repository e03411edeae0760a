import { describe, expect, it } from 'vitest';
import { passBytes, translateEventStream, translateJsonBody } from './translate-reply-bytes.js';

describe('translateEventStream', () => {
  it('hands each payload to the translator once, whatever the chunking and line endings', () => {
    const seen: unknown[] = [];
    const translator = translateEventStream({
      event: (payload) => {
        seen.push(payload);
        return [`<${JSON.stringify(payload)}>`];
      },
      end: () => ['<end>'],
    });
    const text = 'event: a\r\ndata: {"n":1}\r\n\r\ndata: {"n":2}\n\ndata: [DONE]\n\n';
    const bytes = Buffer.from(text, 'utf8');
    const out = [3, 17, 30, bytes.length].reduce<{ from: number; parts: string[] }>(
      (state, to) => ({
        from: to,
        parts: [...state.parts, translator.push(bytes.subarray(state.from, to)).toString('utf8')],
      }),
      { from: 0, parts: [] },
    );
    const tail = translator.end().toString('utf8');
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, '[DONE]']);
    expect(out.parts.join('') + tail).toBe('<{"n":1}><{"n":2}><"[DONE]"><end>');
  });
});

describe('translateJsonBody', () => {
  it('converts the whole body once at the end', () => {
    const translator = translateJsonBody((json) => ({ wrapped: json }));
    expect(translator.push(Buffer.from('{"a":')).length).toBe(0);
    expect(translator.push(Buffer.from('1}')).length).toBe(0);
    expect(JSON.parse(translator.end().toString('utf8'))).toEqual({ wrapped: { a: 1 } });
  });

  it('hands undefined to the converter when the body is not JSON', () => {
    const translator = translateJsonBody((json) => ({ unreadable: json === undefined }));
    translator.push(Buffer.from('<html>'));
    expect(JSON.parse(translator.end().toString('utf8'))).toEqual({ unreadable: true });
  });
});

describe('passBytes', () => {
  it('returns the bytes untouched', () => {
    const translator = passBytes();
    expect(translator.push(Buffer.from('abc')).toString()).toBe('abc');
    expect(translator.end().length).toBe(0);
  });
});
