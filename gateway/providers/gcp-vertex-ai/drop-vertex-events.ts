/**
 * The decoder of a streamed Claude reply from Vertex AI (`:streamRawPredict`). The stream is
 * Anthropic's SSE, event for event, with one addition: Vertex puts in `vertex_event` events
 * (`{"type":"vertex_event","usage":{…}}`) that no first-party stream has and that strict clients
 * refuse. They are dropped; every other event passes on byte for byte. Events are found with the
 * gateway's SSE scanner (no decoding); only an event whose bytes hold `vertex_event` is read. An
 * event still open when the stream ends passes on as it is (the meter then sees a cut stream).
 */
import { Buffer } from 'node:buffer';
import { createEventFieldReader } from '../../bytes/read-event-fields.js';
import { createServerSentEventScanner } from '../../bytes/scan-server-sent-events.js';

const MARK = Buffer.from('vertex_event');
const NAME = 'vertex_event';
const EMPTY = Buffer.alloc(0);

export interface SseDecoder {
  contentType: string;
  push(chunk: Buffer): Buffer;
  end(): Buffer;
}

function dataType(text: string): unknown {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : null;
  } catch {
    return null;
  }
}

export function createVertexEventDropper(): SseDecoder {
  const fields = createEventFieldReader();
  let kept: Buffer[] = [];
  let current: Buffer = EMPTY;
  const isVertexEvent = (bytes: Buffer, start: number, end: number): boolean => {
    const at = bytes.indexOf(MARK, start);
    if (at === -1 || at >= end) return false;
    if (scanner.sawCarriageReturn) fields.allowCarriageReturns();
    fields.forgetPositions();
    fields.lineEnds = scanner.eventLineEnds;
    fields.read(bytes, start, end);
    if (fields.nameStart !== -1) {
      return bytes.toString('utf8', fields.nameStart, fields.nameEnd) === NAME;
    }
    return fields.dataLines > 0 && dataType(fields.data()) === NAME;
  };
  const scanner = createServerSentEventScanner((bytes, start, end) => {
    if (isVertexEvent(bytes, start, end)) return;
    // The chunk itself is never written again; the scanner's own buffer is reused: copy from it.
    kept.push(
      bytes === current ? bytes.subarray(start, end) : Buffer.from(bytes.subarray(start, end)),
    );
  });
  const take = (): Buffer => {
    const out = kept.length === 1 ? (kept[0] ?? EMPTY) : Buffer.concat(kept);
    kept = [];
    return out;
  };
  return {
    contentType: 'text/event-stream',
    push(chunk) {
      current = chunk;
      scanner.feed(chunk);
      current = EMPTY;
      return take();
    },
    end() {
      const rest = scanner.heldBytes > 0 ? scanner.take() : EMPTY;
      const out = take();
      return rest.length === 0 ? out : Buffer.concat([out, rest]);
    },
  };
}
