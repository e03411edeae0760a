import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { USAGE_READERS } from '../../protocols/registry.js';
import type { EventObserver, StreamTap } from '../../bytes/create-stream-tap.js';
import {
  relayMeteredReply,
  type MeteredRelay,
  type RelayMeteredReplyOptions,
} from './relay-metered-reply.js';

const frames = [
  'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

function relay(source: Readable, overrides: Partial<RelayMeteredReplyOptions> = {}) {
  return relayMeteredReply({
    body: source as unknown as Dispatcher.ResponseData['body'],
    reader: USAGE_READERS['anthropic-messages'],
    stream: true,
    contentType: 'text/event-stream',
    translator: null,
    streamError: () => 'event: error\ndata: {"type":"error"}\n\n',
    onUpstreamError: () => undefined,
    ...overrides,
  });
}

function collector(): { out: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Everything the relay writes, once it ended. */
async function collect(metered: MeteredRelay): Promise<string> {
  const { out, text } = collector();
  await metered.writeTo(out);
  await finished(out);
  return text();
}

describe('relayMeteredReply', () => {
  it('passes the bytes through unchanged and meters the usage', async () => {
    const metered = relay(Readable.from(frames.map((frame) => Buffer.from(frame))));
    expect(await collect(metered)).toBe(frames.join(''));
    const outcome = await metered.outcome;
    expect(outcome.end).toBe('ended');
    expect(outcome.report.usage).toMatchObject({ inputUncached: 12, output: 7 });
    expect(outcome.report.complete).toBe(true);
  });

  it('meters the upstream bytes before the reply translator changes them', async () => {
    const metered = relay(Readable.from(frames.map((frame) => Buffer.from(frame))), {
      translator: {
        push: (chunk) => Buffer.from(chunk.toString('utf8').toUpperCase()),
        end: () => Buffer.from('TAIL'),
      },
    });
    expect(await collect(metered)).toBe(`${frames.join('').toUpperCase()}TAIL`);
    expect((await metered.outcome).report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });

  it('ends a broken upstream stream with the error frame and reports the failure', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source);
    source.push(Buffer.from(frames[0]!));
    setImmediate(() => source.destroy(new Error('reset')));
    const text = await collect(metered);
    expect(text).toBe(`${frames[0]!}event: error\ndata: {"type":"error"}\n\n`);
    const outcome = await metered.outcome;
    expect(outcome.end).toBe('upstream-failed');
    expect(outcome.report).toMatchObject({ provisional: true, complete: false });
  });

  it('reports a client that went away once, and stops reading the upstream', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source);
    const { out } = collector();
    void metered.writeTo(out);
    source.push(Buffer.from(frames[0]! + frames[1]!));
    await new Promise((resolve) => setImmediate(resolve));
    out.destroy();
    metered.clientClosed();
    const outcome = await metered.outcome;
    expect(outcome.end).toBe('client-closed');
    expect(outcome.report.textChars).toBe(5);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.destroyed).toBe(true);
  });

  it('pauses the upstream while the caller does not read, and loses no byte', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let produced = 0;
    const source = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        // An upstream that always has more: only backpressure stops it.
        produced += 1;
        this.push(produced <= 200 ? chunk : null);
      },
    });
    const metered = relay(source, { stream: false, contentType: 'application/octet-stream' });
    // A caller that does not read: nothing written completes until it starts.
    let reading = false;
    const held: Array<() => void> = [];
    let received = 0;
    const out = new Writable({
      highWaterMark: 64 * 1024,
      write(piece: Buffer, _encoding, done) {
        received += piece.length;
        if (reading) done();
        else held.push(done);
      },
    });
    void metered.writeTo(out);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nobody read the reply yet: a few chunks were taken, not the 200 the upstream offers.
    expect(produced).toBeLessThan(10);
    reading = true;
    for (const done of held.splice(0)) done();
    await finished(out);
    expect(received).toBe(200 * chunk.length);
    expect((await metered.outcome).end).toBe('ended');
  });

  it('writes nothing and rejects when the upstream fails before any byte with no error frame', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source, { streamError: () => null });
    let firstOutput = 0;
    const { out, text } = collector();
    const started = metered.writeTo(out, () => (firstOutput += 1));
    setImmediate(() => source.destroy(new Error('reset')));
    await expect(started).rejects.toThrow('reset');
    expect(firstOutput).toBe(0);
    expect(text()).toBe('');
    expect(out.destroyed).toBe(false);
    expect((await metered.outcome).end).toBe('upstream-failed');
  });

  it('settles at once when the caller went away before it started, the upstream having failed', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source);
    source.destroy(new Error('reset'));
    await new Promise((resolve) => setImmediate(resolve));
    const { out, text } = collector();
    out.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    await metered.writeTo(out);
    expect(text()).toBe('');
    expect((await metered.outcome).end).toBe('upstream-failed');
  });

  it('runs the first-output step once, before the first byte, and resolves then', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source);
    const seen: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        seen.push(chunk.toString('utf8'));
        done();
      },
    });
    const started = metered.writeTo(out, () => seen.push('head'));
    source.push(Buffer.from(frames[0]!));
    await started;
    source.push(Buffer.from(frames[1]!));
    source.push(null);
    await finished(out);
    expect(seen).toEqual(['head', frames[0]!, frames[1]!]);
  });

  it('relays the chunks read before it first, then the rest', async () => {
    const source = new Readable({ read: () => undefined });
    const metered = relay(source, { prefix: [Buffer.from(frames[0]!)] });
    source.push(Buffer.from(frames.slice(1).join('')));
    source.push(null);
    expect(await collect(metered)).toBe(frames.join(''));
    expect((await metered.outcome).report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });
  it('gives a translator that shares the framing the tap frames, prefix and pieces alike', async () => {
    // Passes on each whole event, lower-cased, once the tap has framed it; nothing else.
    const framed: Buffer[] = [];
    let shared = false;
    const observer: EventObserver = {
      chunk: () => undefined,
      event: (bytes, start, end) => framed.push(Buffer.from(bytes.subarray(start, end))),
    };
    const translator = {
      shareFraming: (tap: StreamTap<unknown>) => (shared = tap.observeEvents(observer) !== null),
      push: () => Buffer.from(Buffer.concat(framed.splice(0)).toString('utf8').toLowerCase()),
      end: () => Buffer.alloc(0),
    };
    const stream = Buffer.from(frames.join('').replaceAll('\n', '\r\n'));
    const pieces: Buffer[] = [];
    for (let offset = 0; offset < stream.length; offset += 7) {
      pieces.push(stream.subarray(offset, offset + 7));
    }
    const source = new Readable({ read: () => undefined });
    const metered = relay(source, { translator, prefix: pieces.slice(0, 3) });
    for (const piece of pieces.slice(3)) source.push(piece);
    source.push(null);
    expect(await collect(metered)).toBe(stream.toString('utf8').toLowerCase());
    expect(shared).toBe(true);
    expect((await metered.outcome).report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });

  it('shares no framing with a translator when the reply is not SSE', async () => {
    let shared: boolean | undefined;
    const translator = {
      shareFraming: (tap: StreamTap<unknown>) =>
        (shared = tap.observeEvents({ chunk: () => undefined, event: () => undefined }) !== null),
      push: (chunk: Buffer) => chunk,
      end: () => Buffer.alloc(0),
    };
    const body = Buffer.from('{"usage":{}}');
    const metered = relay(Readable.from([body]), {
      translator,
      stream: false,
      contentType: 'application/json',
    });
    expect(await collect(metered)).toBe('{"usage":{}}');
    expect(shared).toBeUndefined();
  });
});
