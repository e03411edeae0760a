/**
 * Incremental, synchronous server-sent-events parser over raw byte chunks. Bytes are decoded as a
 * UTF-8 stream (a chunk may end inside a multi-byte character) and handed to `eventsource-parser`,
 * which follows the WHATWG rules: CR, LF and CRLF line ends (also split across chunks), multi-line
 * `data`, comments, `event`, `id` and `retry` fields, no size limit on one event.
 */
import { createParser } from 'eventsource-parser';

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
  /** Flushes the decoder; an event without its closing blank line is dropped, per the spec. */
  end(): ServerSentEvent[];
}

export function createServerSentEventParser(): ServerSentEventParser {
  const decoder = new TextDecoder('utf-8');
  let completed: ServerSentEvent[] = [];
  let lastEventId: string | undefined;
  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) lastEventId = message.id;
      completed.push({ event: message.event, data: message.data, id: lastEventId });
    },
  });
  const take = (): ServerSentEvent[] => {
    const events = completed;
    completed = [];
    return events;
  };
  return {
    feed(chunk) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      return take();
    },
    end() {
      const rest = decoder.decode();
      if (rest !== '') parser.feed(rest);
      return take();
    },
  };
}
