/**
 * Test helper: replays a recorded-style fixture (`__fixtures__/*.chunks.txt`, one event payload per
 * line) through the real framing parser and tap, cut into chunks of a given size, into a usage
 * accumulator; returns its report.
 */
import { readFileSync } from 'node:fs';
import { createStreamTap } from '../../gateway/bytes/create-stream-tap.js';
import type { UsageAccumulator, UsageReport } from '../../gateway/spec/usage-report.js';

export interface ReplayOptions {
  fixture: URL;
  accumulator: UsageAccumulator;
  /** SSE (with `event:` lines taken from each payload's `type` when asked) or a JSON array. */
  framing: 'sse' | 'sse-with-event-lines' | 'json-array';
  chunkBytes: number;
}

export function readFixtureLines(fixture: URL): string[] {
  return readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function encodeBody(lines: string[], framing: ReplayOptions['framing']): string {
  if (framing === 'json-array') return `[${lines.join(',\r\n')}]`;
  return lines
    .map((line) => {
      if (framing === 'sse' || line === '[DONE]') return `data: ${line}\n\n`;
      const type = (JSON.parse(line) as { type?: string }).type ?? 'message';
      return `event: ${type}\ndata: ${line}\n\n`;
    })
    .join('');
}

export function replayUsageFixture(options: ReplayOptions): UsageReport {
  const body = Buffer.from(encodeBody(readFixtureLines(options.fixture), options.framing));
  const tap = createStreamTap({
    framing: options.framing === 'json-array' ? 'json-array' : 'sse',
    sink: options.accumulator,
  });
  for (let offset = 0; offset < body.length; offset += options.chunkBytes) {
    tap.write(body.subarray(offset, offset + options.chunkBytes));
  }
  const outcome = tap.finish({ sourceEnded: true });
  if (outcome.bytes !== body.length) throw new Error('the tap lost bytes');
  return outcome.result;
}
