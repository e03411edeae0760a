/**
 * Incremental, synchronous server-sent-events parser over raw byte chunks, for the reply
 * translators. Events are found in the bytes by the same scanner as the metering tap
 * (`scan-server-sent-events.ts`): CR, LF and CRLF line ends (also split across chunks), multi-line
 * `data`, comments, `event`, `id` and `retry` fields, no size limit on one event, as
 * `eventsource-parser` reads them. An event is decoded as UTF-8 once it is complete, so a chunk may
 * end inside a multi-byte character.
 */
import { Buffer } from 'node:buffer';
import { createEventFieldReader } from './read-event-fields.js';
import { createServerSentEventScanner } from './scan-server-sent-events.js';

export interface ServerSentEvent {
  /** The `event:` field; undefined for data-only streams. */
  event: string | undefined;
  data: string;
  /** The last event id seen so far (it carries over to later events, as in the spec). */
  id: string | undefined;
}

export interface ServerSentEventParser {
  /** Feeds one chunk; returns the events it completed. */
  feed(chunk: Uint8Array): ServerSentEvent[];
  /** Ends the stream; an event without its closing blank line is dropped, per the spec. */
  end(): ServerSentEvent[];
}

const BOM = [0xef, 0xbb, 0xbf];

export function createServerSentEventParser(): ServerSentEventParser {
  const fields = createEventFieldReader();
  let completed: ServerSentEvent[] = [];
  let lastEventId: string | undefined;
  let first = true;
  const scanner = createServerSentEventScanner((bytes, start, end) => {
    let from = start;
    if (first) {
      first = false;
      // A byte order mark at the start of the stream is not part of the first line.
      if (BOM.every((byte, offset) => bytes[start + offset] === byte)) from += BOM.length;
    }
    if (scanner.sawCarriageReturn) fields.allowCarriageReturns();
    fields.lineEnds = scanner.eventLineEnds;
    fields.read(bytes, from, end);
    if (fields.dataLines === 0) return;
    if (fields.id !== undefined) lastEventId = fields.id;
    const event =
      fields.nameStart === -1
        ? undefined
        : bytes.toString('utf8', fields.nameStart, fields.nameEnd);
    completed.push({ event, data: fields.data(), id: lastEventId });
  });
  const take = (): ServerSentEvent[] => {
    const events = completed;
    completed = [];
    return events;
  };
  return {
    feed(chunk) {
      fields.forgetPositions();
      scanner.feed(
        chunk.constructor === Buffer
          ? (chunk as Buffer)
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
      );
      return take();
    },
    end: take,
  };
}
