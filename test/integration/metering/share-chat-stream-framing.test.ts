import { describe, expect, it } from 'vitest';
import { readFixtureLines } from '../../support/replay-usage-fixture.js';
import {
  createStreamTap,
  sharesFraming,
  type StreamTap,
} from '../../../gateway/bytes/create-stream-tap.js';
import type { UsageReport } from '../../../gateway/spec/usage-report.js';
import { USAGE_READERS } from '../../../gateway/protocols/registry.js';
import { createChatUsageChunkStripper } from '../../../gateway/protocols/openai-chat/request-chat-stream-usage.js';

/**
 * The usage-chunk stripper taking its frames from the metering tap (`shareFraming`, as the relay
 * sets it up) must pass on exactly the bytes it passes on with its own framing, and the tap must
 * report exactly what it reports alone, however the stream is cut.
 */
const usageFrame = (end: string): string =>
  `data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}${end}${end}`;
const textFrame = (end: string, text: string): string =>
  `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}],"usage":null}${end}${end}`;

function fixtureStream(fixture: string, end: string): Buffer {
  const lines = readFixtureLines(
    new URL(`../../../gateway/protocols/openai-chat/__fixtures__/${fixture}`, import.meta.url),
  );
  return Buffer.from(lines.map((line) => `data: ${line}${end}${end}`).join(''));
}

const streams: { name: string; bytes: Buffer }[] = [];
for (const [label, end] of [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
  ['CR', '\r'],
] as const) {
  streams.push({ name: `chat-usage ${label}`, bytes: fixtureStream('chat-usage.chunks.txt', end) });
  streams.push({
    name: `hand-made ${label}`,
    bytes: Buffer.from(
      [
        `: a comment${end}${end}`,
        `event: chunk${end}${textFrame(end, 'h\u00e9llo [] {')}`,
        `id: 7${end}${textFrame(end, '\ud83d\ude00')}`,
        // A usage chunk over two data lines, then one with `event:` and `id:` lines.
        `data: {"choices":[],${end}data: "usage":{"prompt_tokens":1}}${end}${end}`,
        `event: chunk${end}id: 8${end}${usageFrame(end)}`,
        `data: [DONE]${end}${end}`,
        // An unfinished usage chunk at the end (dropped by `end`), as a cut stream leaves it.
        `data: {"choices":[],"usage":{"prompt_tokens":2}}${end}`,
      ].join(''),
    ),
  });
}
// A byte order mark before a usage chunk: the stripper's own framing reads its first field as
// "\ufeffdata" and keeps it; the tap skips the mark. Shared framing must keep the stripper's way.
streams.push({
  name: 'byte order mark',
  bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(usageFrame('\n'))]),
});

interface Run {
  out: string;
  report: UsageReport;
  overflowed: boolean;
}

function run(
  bytes: Buffer,
  cuts: number[],
  options: { share: boolean; maxEventBytes?: number; finishAt?: number },
): Run {
  const tap: StreamTap<UsageReport> = createStreamTap({
    framing: 'sse',
    sink: USAGE_READERS['openai-chat'].stream(),
    ...(options.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }),
  });
  const stripper = createChatUsageChunkStripper();
  if (options.share) {
    expect(sharesFraming(stripper) && stripper.shareFraming(tap)).toBe(true);
  }
  const out: Buffer[] = [];
  let outcome: ReturnType<typeof tap.finish> | undefined;
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    // The tap may be finished early (the caller went away) while chunks still flow.
    if (options.finishAt !== undefined && from >= options.finishAt && outcome === undefined) {
      outcome = tap.finish({ sourceEnded: false });
    }
    const chunk = bytes.subarray(from, to);
    tap.write(chunk);
    out.push(stripper.push(chunk));
    from = to;
  }
  outcome ??= tap.finish({ sourceEnded: true });
  out.push(stripper.end());
  return {
    out: Buffer.concat(out).toString('latin1'),
    report: outcome.result,
    overflowed: outcome.overflowed,
  };
}

function everySize(length: number): number[][] {
  const all: number[][] = [];
  for (let size = 1; size <= length; size += 1) {
    const cuts: number[] = [];
    for (let at = size; at < length; at += size) cuts.push(at);
    all.push(cuts);
  }
  return all;
}

describe('the Chat usage-chunk stripper sharing the tap framing', () => {
  it.each(streams)('$name: same bytes and report at every piece size', ({ bytes }) => {
    const expected = run(bytes, [], { share: false });
    for (const cuts of everySize(bytes.length)) {
      const shared = run(bytes, cuts, { share: true });
      const own = run(bytes, cuts, { share: false });
      if (JSON.stringify(shared) !== JSON.stringify(expected) || own.out !== expected.out) {
        expect({ cuts: cuts.length, shared, own }).toEqual({
          cuts: cuts.length,
          shared: expected,
          own: expected,
        });
      }
    }
  });

  it.each(streams)('$name: same bytes and report split at every byte offset', ({ bytes }) => {
    const expected = run(bytes, [], { share: false });
    for (let at = 1; at < bytes.length; at += 1) {
      for (const cuts of [
        [at],
        [at, Math.min(at + 1, bytes.length)],
        [at - 1, at].filter(Boolean),
      ]) {
        const shared = run(bytes, cuts, { share: true });
        if (JSON.stringify(shared) !== JSON.stringify(expected)) {
          expect({ cuts, shared }).toEqual({ cuts, shared: expected });
        }
      }
    }
  });

  it('still strips after the tap stopped reading (an event past the size limit)', () => {
    const bytes = streams[2]!.bytes;
    for (const cuts of everySize(bytes.length).filter((_, index) => index % 5 === 0)) {
      const shared = run(bytes, cuts, { share: true, maxEventBytes: 120 });
      const own = run(bytes, cuts, { share: false, maxEventBytes: 120 });
      expect(shared).toEqual(own);
      expect(shared.overflowed).toBe(true);
      expect(shared.out).toBe(run(bytes, [], { share: false }).out);
    }
  });

  it('still strips after the tap was finished (the caller went away)', () => {
    const bytes = streams[4]!.bytes;
    const expected = run(bytes, [], { share: false }).out;
    for (const finishAt of [1, 100, 300, bytes.length - 3]) {
      for (const cuts of everySize(bytes.length).filter((_, index) => index % 7 === 0)) {
        const shared = run(bytes, cuts, { share: true, finishAt });
        const own = run(bytes, cuts, { share: false, finishAt });
        expect(shared).toEqual(own);
        expect(shared.out).toBe(expected);
      }
    }
  });

  it('shares only SSE framing, only before the first chunk, and needs the tap to write first', () => {
    const array = createStreamTap({
      framing: 'json-array',
      sink: USAGE_READERS['gemini-generate-content'].stream(),
    });
    const stripper = createChatUsageChunkStripper();
    expect(sharesFraming(stripper) && stripper.shareFraming(array)).toBe(false);
    const started = createStreamTap({
      framing: 'sse',
      sink: USAGE_READERS['openai-chat'].stream(),
    });
    started.write(Buffer.from(': hi\n\n'));
    expect(sharesFraming(stripper) && stripper.shareFraming(started)).toBe(false);
    // Not shared: the stripper frames by itself.
    expect(stripper.push(Buffer.from(usageFrame('\n'))).length).toBe(0);
    const tap = createStreamTap({ framing: 'sse', sink: USAGE_READERS['openai-chat'].stream() });
    const shared = createChatUsageChunkStripper();
    expect(sharesFraming(shared) && shared.shareFraming(tap)).toBe(true);
    expect(() => shared.push(Buffer.from(textFrame('\n', 'a')))).toThrow(/tap must write/);
  });
});
