import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStreamTap, type PayloadSink } from './create-stream-tap.js';
import { tapAsyncIterable, tapReadableStream } from './tap-readable-stream.js';

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
});

describe('tap adapters', () => {
  it('passes Web stream bytes through unchanged and resolves at the end', async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const tapped = tapReadableStream(
      source,
      createStreamTap({ framing: 'sse', sink: collectingSink() }),
    );
    const received = Buffer.from(await new Response(tapped.stream).arrayBuffer());
    expect(received.toString()).toBe(sse);
    const outcome = await tapped.outcome;
    expect(outcome.sourceEnded).toBe(true);
    expect(outcome.result).toHaveLength(3);
  });

  it('resolves with what was seen when the consumer cancels', async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from('data: {"n":1}\n\n'));
      },
    });
    const tapped = tapReadableStream(
      source,
      createStreamTap({ framing: 'sse', sink: collectingSink() }),
    );
    const reader = tapped.stream.getReader();
    await reader.read();
    await reader.cancel('client went away');
    const outcome = await tapped.outcome;
    expect(outcome).toMatchObject({ sourceEnded: false, result: [{ n: 1 }] });
  });

  it('passes async-iterable chunks through and reports once when the consumer stops early', async () => {
    const outcomes: unknown[] = [];
    const tap = createStreamTap({ framing: 'sse', sink: collectingSink() });
    const passed: Buffer[] = [];
    for await (const chunk of tapAsyncIterable(Readable.from(chunks), tap, (outcome) =>
      outcomes.push(outcome),
    )) {
      passed.push(Buffer.from(chunk));
      if (passed.length === 2) break;
    }
    expect(Buffer.concat(passed).equals(Buffer.concat(chunks.slice(0, 2)))).toBe(true);
    expect(outcomes).toEqual([
      expect.objectContaining({ sourceEnded: false, bytes: 23, result: [] }),
    ]);
  });
});
