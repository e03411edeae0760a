import { describe, expect, it } from 'vitest';
import { createStreamTap, type PayloadSink } from './create-stream-tap.js';
import { createParser } from 'eventsource-parser';

function collectingSink(): PayloadSink<unknown[]> & { payloads: unknown[] } {
  const payloads: unknown[] = [];
  return { payloads, feed: (payload) => payloads.push(payload), result: () => [...payloads] };
}

const sse = 'event: a\ndata: {"n":1}\n\ndata: [DONE]\n\ndata: not json\n\n';
const chunks = [sse.slice(0, 5), sse.slice(5, 23), sse.slice(23)].map((text) => Buffer.from(text));

describe('createStreamTap', () => {
  it('parses SSE payloads as JSON, keeps [DONE] and counts non-JSON payloads', () => {
    const tap = createStreamTap({ framing: 'sse', sink: collectingSink() });
    for (const chunk of chunks) tap.write(chunk);
    const outcome = tap.finish({ sourceEnded: true });
    expect(outcome).toEqual({
      result: [{ n: 1 }, '[DONE]', 'not json'],
      bytes: Buffer.byteLength(sse),
      sourceEnded: true,
      unparsedPayloads: 1,
      overflowed: false,
    });
    expect(tap.finish({ sourceEnded: false })).toBe(outcome);
  });

  it('parses a whole JSON body only when it arrived in full', () => {
    const whole = createStreamTap({ framing: 'json', sink: collectingSink() });
    whole.write(Buffer.from('{"usage":'));
    whole.write(Buffer.from('{"a":1}}'));
    expect(whole.finish({ sourceEnded: true }).result).toEqual([{ usage: { a: 1 } }]);
    const cut = createStreamTap({ framing: 'json', sink: collectingSink() });
    cut.write(Buffer.from('{"usage":'));
    expect(cut.finish({ sourceEnded: false }).result).toEqual([]);
  });

  it('stops parsing, but keeps counting bytes, past the event size limit', () => {
    const tap = createStreamTap({ framing: 'sse', sink: collectingSink(), maxEventBytes: 8 });
    tap.write(Buffer.from('data: 1\n\n'));
    tap.write(Buffer.from('data: 123456789'));
    tap.write(Buffer.from('\n\n'));
    const outcome = tap.finish({ sourceEnded: true });
    expect(outcome.overflowed).toBe(true);
    expect(outcome.bytes).toBe(26);
  });

  it('does not parse events the sink ignores, and they still end an event for the size limit', () => {
    const sink = { ...collectingSink(), ignoresEvent: (name: string) => name === 'ping' };
    const tap = createStreamTap({ framing: 'sse', sink, maxEventBytes: 40 });
    tap.write(Buffer.from('event: ping\ndata: not json at all\n\n'));
    tap.write(Buffer.from('event: ping\ndata: still not json\n\n'));
    tap.write(Buffer.from('event: a\ndata: {"n":1}\n\ndata: {"n":2}\n\n'));
    const outcome = tap.finish({ sourceEnded: true });
    expect(outcome.result).toEqual([{ n: 1 }, { n: 2 }]);
    expect(outcome.unparsedPayloads).toBe(0);
    expect(outcome.overflowed).toBe(false);
  });
});

describe('createStreamTap, SSE framing against the reference parser', () => {
  const stream = [
    '\uFEFF: comment line\n',
    'event: first\r\n',
    'data: {"text":"héllo ☃ 🙂"}\r\n',
    '\r\n',
    'data: {"a":\rdata: 1}\r\r',
    'id: 7\n',
    'data:{"no":"space"}\n',
    'retry: 10\n',
    'unknown: field\n',
    '\n',
    'event:\n',
    'data\n',
    '\n',
    'event: only-a-name\n\n',
    '\n\n\n',
    'data: [DONE]\n\n',
    'data: {"cut":"off"}\n',
  ].join('');

  function reference(): unknown[] {
    const payloads: unknown[] = [];
    const parser = createParser({
      onEvent: (event) => {
        try {
          payloads.push(JSON.parse(event.data) as unknown);
        } catch {
          payloads.push(event.data);
        }
      },
    });
    parser.feed(new TextDecoder('utf-8').decode(Buffer.from(stream)));
    return payloads;
  }

  it('gives the payloads eventsource-parser gives, however the bytes are cut', () => {
    const expected = reference();
    expect(expected).toHaveLength(5);
    const bytes = Buffer.from(stream);
    for (let size = 1; size <= bytes.length; size += 1) {
      const tap = createStreamTap({ framing: 'sse', sink: collectingSink() });
      for (let offset = 0; offset < bytes.length; offset += size) {
        tap.write(bytes.subarray(offset, offset + size));
      }
      expect(tap.finish({ sourceEnded: true }).result).toEqual(expected);
    }
  });
  it('reads pieces that are plain Uint8Arrays as it reads Buffers, at every piece size', () => {
    const streams = [
      {
        framing: 'sse' as const,
        text: '\ufeffevent: a\r\ndata: {"n":"\u00e9"}\r\n\r\ndata: [DONE]\r\rdata: x\n\n',
      },
      { framing: 'json-array' as const, text: ' [{"n":1},\r\n{"s":"} ]\\""}, [2], {"n":3}]' },
    ];
    for (const { framing, text } of streams) {
      const bytes = Buffer.from(text);
      const run = (size: number, plain: boolean) => {
        const tap = createStreamTap({ framing, sink: collectingSink() });
        for (let offset = 0; offset < bytes.length; offset += size) {
          const piece = bytes.subarray(offset, offset + size);
          tap.write(plain ? new Uint8Array(piece) : piece);
        }
        return tap.finish({ sourceEnded: true });
      };
      const whole = run(bytes.length, false);
      expect(whole.unparsedPayloads).toBe(framing === 'sse' ? 1 : 0);
      for (let size = 1; size <= bytes.length; size += 1) {
        expect({ size, outcome: run(size, true) }).toEqual({ size, outcome: whole });
        expect({ size, outcome: run(size, false) }).toEqual({ size, outcome: whole });
      }
    }
  });
});
