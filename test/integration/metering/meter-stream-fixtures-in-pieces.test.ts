import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFixtureLines } from '../../support/replay-usage-fixture.js';
import { createStreamTap, type StreamFraming } from '../../../gateway/bytes/create-stream-tap.js';
import type { UsageAccumulator } from '../../../gateway/spec/usage-report.js';
import { createChatUsageChunkStripper } from '../../../gateway/protocols/openai-chat/request-chat-stream-usage.js';
import type { UsageReaders } from '../../../gateway/spec/protocol-adapter.js';
import { USAGE_READERS } from '../../../gateway/protocols/registry.js';

/**
 * Every recorded stream fixture, framed as upstreams frame it (SSE with LF, CRLF or CR line ends,
 * with and without `event:` lines; Gemini's JSON array), fed whole and in pieces of every size from
 * 1 byte to the whole body: the usage report must not depend on where the stream was cut, nor on
 * whether an event was read from its bytes or parsed.
 */
type Format = keyof UsageReaders;

const folders: Record<Format, string> = {
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  'anthropic-messages': 'anthropic-messages',
  'gemini-generate-content': 'gemini-generate-content',
  antigravity: 'antigravity',
};

interface Body {
  name: string;
  framing: StreamFraming;
  bytes: Buffer;
}

function sse(lines: string[], options: { named: boolean; end: string }): Buffer {
  const { end } = options;
  return Buffer.from(
    lines
      .map((line) => {
        if (!options.named || line === '[DONE]') return `data: ${line}${end}${end}`;
        const type = (JSON.parse(line) as { type?: string }).type ?? 'message';
        return `event: ${type}${end}data: ${line}${end}${end}`;
      })
      .join(''),
  );
}

function bodies(format: Format, fixture: string): Body[] {
  const lines = readFixtureLines(
    new URL(
      `../../../gateway/protocols/${folders[format]}/__fixtures__/${fixture}`,
      import.meta.url,
    ),
  );
  const named = format === 'openai-responses' || format === 'anthropic-messages';
  const out: Body[] = [];
  for (const [label, end] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    out.push({ name: `sse ${label}`, framing: 'sse', bytes: sse(lines, { named, end }) });
  }
  if (named) {
    out.push({
      name: 'sse unnamed',
      framing: 'sse',
      bytes: sse(lines, { named: false, end: '\n' }),
    });
  }
  if (format === 'gemini-generate-content') {
    const pretty = lines.map((line) => JSON.stringify(JSON.parse(line), null, 2));
    out.push({
      name: 'json-array',
      framing: 'json-array',
      bytes: Buffer.from(`[${pretty.join(',\r\n')}]`),
    });
  }
  return out;
}

/** The accumulator without its fast paths: every event parsed and fed. */
function parsingOnly(accumulator: UsageAccumulator): UsageAccumulator {
  return {
    feed: (payload) => {
      accumulator.feed(payload);
    },
    result: () => accumulator.result(),
  };
}

function meter(body: Body, sink: UsageAccumulator, pieceBytes: number) {
  const tap = createStreamTap({ framing: body.framing, sink });
  for (let offset = 0; offset < body.bytes.length; offset += pieceBytes) {
    tap.write(body.bytes.subarray(offset, offset + pieceBytes));
  }
  return tap.finish({ sourceEnded: true });
}

const cases = (Object.keys(folders) as Format[]).flatMap((format) =>
  readdirSync(
    new URL(`../../../gateway/protocols/${folders[format]}/__fixtures__/`, import.meta.url),
  )
    .filter((file) => file.endsWith('.chunks.txt'))
    .flatMap((fixture) => bodies(format, fixture).map((body) => ({ format, fixture, body }))),
);

describe('metering a recorded stream in pieces', () => {
  it.each(cases)(
    '$fixture ($body.name): every piece size gives the whole-body report',
    ({ format, body }) => {
      const whole = meter(body, USAGE_READERS[format].stream(), body.bytes.length);
      expect(whole.unparsedPayloads).toBe(0);
      expect(meter(body, parsingOnly(USAGE_READERS[format].stream()), body.bytes.length)).toEqual(
        whole,
      );
      for (let pieceBytes = 1; pieceBytes <= body.bytes.length; pieceBytes += 1) {
        const cut = meter(body, USAGE_READERS[format].stream(), pieceBytes);
        if (JSON.stringify(cut) !== JSON.stringify(whole)) {
          expect({ pieceBytes, cut }).toEqual({ pieceBytes, cut: whole });
        }
      }
    },
  );
});

describe('stripping the Chat usage chunk in pieces', () => {
  const chatCases = cases.filter(
    ({ format, body }) => format === 'openai-chat' && body.framing === 'sse',
  );

  it.each(chatCases)('$fixture ($body.name): every piece size gives the same bytes', ({ body }) => {
    const strip = (pieceBytes: number): Buffer => {
      const stripper = createChatUsageChunkStripper();
      const out: Buffer[] = [];
      for (let offset = 0; offset < body.bytes.length; offset += pieceBytes) {
        out.push(stripper.push(body.bytes.subarray(offset, offset + pieceBytes)));
      }
      out.push(stripper.end());
      return Buffer.concat(out);
    };
    const whole = strip(body.bytes.length);
    // What remains is the stream without its usage chunk, every other byte as it came.
    const text = body.bytes.toString('latin1');
    const frames = text.split(/(?<=\r\n\r\n|\n\n|\r\r)/);
    const expected = frames.filter((frame) => !/"choices":\[\],.*"usage":\{/.test(frame)).join('');
    expect(whole.toString('latin1')).toBe(expected);
    for (let pieceBytes = 1; pieceBytes < body.bytes.length; pieceBytes += 1) {
      const cut = strip(pieceBytes);
      if (!cut.equals(whole))
        expect({ pieceBytes, cut: cut.toString() }).toEqual({ pieceBytes, cut: whole.toString() });
    }
  });
});
