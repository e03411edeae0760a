import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { crc32, EventStreamDecoder, EventStreamError } from './decode-event-stream.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function encode(index: number): Buffer {
  return Buffer.from(
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: 'chunk' },
        ':message-type': { type: 'string', value: 'event' },
        flag: { type: 'boolean', value: true },
        small: { type: 'byte', value: 7 },
        count: { type: 'integer', value: 42 },
        raw: { type: 'binary', value: new Uint8Array([1, 2, 3]) },
        when: { type: 'timestamp', value: new Date('2026-01-01T00:00:00Z') },
      },
      body: fromUtf8(JSON.stringify({ index, text: 'é'.repeat(index) })),
    }),
  );
}

const stream = Buffer.concat([encode(0), encode(1), encode(2)]);

describe('EventStreamDecoder', () => {
  it('decodes messages encoded by the AWS SDK, split at every byte', () => {
    for (let cut = 1; cut < stream.length; cut += 1) {
      const decoder = new EventStreamDecoder();
      const messages = [
        ...decoder.push(stream.subarray(0, cut)),
        ...decoder.push(stream.subarray(cut)),
      ];
      decoder.end();
      expect(messages.map((m) => JSON.parse(m.payload.toString('utf8')) as unknown)).toEqual([
        { index: 0, text: '' },
        { index: 1, text: 'é' },
        { index: 2, text: 'éé' },
      ]);
      expect(messages[0]?.headers).toEqual({ ':event-type': 'chunk', ':message-type': 'event' });
    }
  });

  it('decodes a stream fed one byte at a time', () => {
    const decoder = new EventStreamDecoder();
    let count = 0;
    for (const byte of stream) count += decoder.push(Buffer.from([byte])).length;
    expect(count).toBe(3);
  });

  it('refuses a corrupt prelude and a corrupt message', () => {
    const prelude = Buffer.from(stream);
    prelude[5] = (prelude[5] ?? 0) ^ 0xff;
    expect(() => new EventStreamDecoder().push(prelude)).toThrow(EventStreamError);
    const body = Buffer.from(stream);
    body[40] = (body[40] ?? 0) ^ 0x01;
    expect(() => new EventStreamDecoder().push(body)).toThrow(/checksum/);
  });

  it('refuses a stream that ends inside a message', () => {
    const decoder = new EventStreamDecoder();
    decoder.push(stream.subarray(0, stream.length - 3));
    expect(() => {
      decoder.end();
    }).toThrow(/ended inside a message/);
  });

  it('computes the standard CRC32', () => {
    expect(crc32(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
  });
});
