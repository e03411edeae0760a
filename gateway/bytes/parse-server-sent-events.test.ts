import { describe, expect, it } from 'vitest';
import { createServerSentEventParser, type ServerSentEvent } from './parse-server-sent-events.js';

function parseInPieces(bytes: Uint8Array, cut: (index: number) => boolean): ServerSentEvent[] {
  const parser = createServerSentEventParser();
  const events: ServerSentEvent[] = [];
  let start = 0;
  for (let index = 1; index <= bytes.length; index += 1) {
    if (index === bytes.length || cut(index)) {
      events.push(...parser.feed(bytes.subarray(start, index)));
      start = index;
    }
  }
  return [...events, ...parser.end()];
}

const stream = [
  ': comment line\n',
  'event: message_start\r\n',
  'data: {"type":"message_start","text":"héllo ☃ 🙂"}\r\n',
  '\r\n',
  'data: first\rdata: second\r\r',
  'id: 7\n',
  'data:no-space\n',
  '\n',
  'data: [DONE]\n\n',
].join('');

const expected: ServerSentEvent[] = [
  { event: 'message_start', data: '{"type":"message_start","text":"héllo ☃ 🙂"}', id: undefined },
  { event: undefined, data: 'first\nsecond', id: undefined },
  { event: undefined, data: 'no-space', id: '7' },
  { event: undefined, data: '[DONE]', id: '7' },
];

describe('createServerSentEventParser', () => {
  it('parses CR, LF and CRLF line ends, multi-line data, comments and ids in one chunk', () => {
    expect(parseInPieces(Buffer.from(stream), () => false)).toEqual(expected);
  });

  it('gives the same events when the bytes are split at every position', () => {
    const bytes = Buffer.from(stream);
    for (let split = 1; split < bytes.length; split += 1) {
      expect(parseInPieces(bytes, (index) => index === split)).toEqual(expected);
    }
  });

  it('gives the same events when fed one byte at a time (inside multi-byte characters)', () => {
    expect(parseInPieces(Buffer.from(stream), () => true)).toEqual(expected);
  });

  it('handles a large event', () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const bytes = Buffer.from(`data: ${big}\n\n`);
    const events = parseInPieces(bytes, (index) => index % 65_536 === 0);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.length).toBe(big.length);
  });

  it('drops an event whose closing blank line never came', () => {
    expect(parseInPieces(Buffer.from('data: a\n\ndata: cut'), () => false)).toEqual([
      { event: undefined, data: 'a', id: undefined },
    ]);
  });
});
