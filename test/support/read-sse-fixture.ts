import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';

/** Test support: the `data:` payloads of a recorded SSE fixture, parsed as JSON. */
export function readSseFixture(url: URL): unknown[] {
  const events: unknown[] = [];
  const parser = createParser({
    onEvent: (event) => {
      events.push(JSON.parse(event.data));
    },
  });
  parser.feed(readFileSync(url, 'utf8'));
  return events;
}

export interface DecodedFrame {
  event: string | undefined;
  data: unknown;
}

/** Test support: frames written by a translator, parsed back (`[DONE]` stays a string). */
export function decodeFrames(frames: readonly string[]): DecodedFrame[] {
  const decoded: DecodedFrame[] = [];
  const parser = createParser({
    onEvent: (event) => {
      decoded.push({
        event: event.event,
        data: event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data),
      });
    },
  });
  for (const frame of frames) {
    if (!frame.endsWith('\n\n')) throw new Error(`frame is not terminated: ${frame}`);
    parser.feed(frame);
  }
  return decoded;
}
