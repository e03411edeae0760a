/**
 * The metering tap (STYLE.md 8): it never changes the bytes passed through; it parses a copy of them
 * into payloads for a usage accumulator and resolves the accumulator's result once, at the end of
 * the stream or when the stream is cancelled or fails. Synchronous: the relay
 * (`pipeline/relay-metered-reply.ts`) writes each chunk as it passes and finishes the tap once.
 */
import { createJsonArrayStreamParser } from './parse-json-array-stream.js';
import { createServerSentEventParser, type ServerSentEvent } from './parse-server-sent-events.js';

/** How the upstream frames its body: SSE events, a streamed JSON array, or one JSON document. */
export type StreamFraming = 'sse' | 'json-array' | 'json';

/** Receives each parsed payload: parsed JSON, or the raw text when it is not JSON (`[DONE]`). */
export interface PayloadSink<R> {
  feed(payload: unknown): void;
  result(): R;
  /** True for an SSE event name whose payload the sink never reads: it is then not parsed. */
  ignoresEvent?(name: string): boolean;
  /** Takes a payload's raw text when it needs no parsing (true); false: parse and feed it. */
  feedRaw?(text: string): boolean;
}

export interface TapOutcome<R> {
  result: R;
  /** Bytes that passed through. */
  bytes: number;
  /** True when the source reached its end; false on cancel or failure. */
  sourceEnded: boolean;
  /** Payloads that were not JSON (other than `[DONE]`). */
  unparsedPayloads: number;
  /** True when one event grew past the parse limit; parsing stopped, bytes still flowed. */
  overflowed: boolean;
}

export interface StreamTap<R> {
  write(chunk: Uint8Array): void;
  finish(options: { sourceEnded: boolean }): TapOutcome<R>;
}

export interface StreamTapOptions<R> {
  framing: StreamFraming;
  sink: PayloadSink<R>;
  /** Largest single event (or JSON body) parsed, in bytes. Default 16 MiB. */
  maxEventBytes?: number;
}

const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

function parsePayload(text: string): { value: unknown; parsed: boolean } {
  try {
    return { value: JSON.parse(text) as unknown, parsed: true };
  } catch {
    return { value: text, parsed: text === '[DONE]' };
  }
}

function createFramer(
  framing: StreamFraming,
  ignoresEvent: ((name: string) => boolean) | undefined,
): {
  /** The payloads to parse; `completed` counts every event ended, ignored ones included. */
  feed(chunk: Uint8Array): string[];
  end(): string[];
  completed: number;
} {
  if (framing === 'sse') {
    const parser = createServerSentEventParser();
    // Events the sink never reads are dropped here, before their payload is parsed.
    const wanted = (events: ServerSentEvent[]): string[] => {
      framer.completed += events.length;
      const payloads: string[] = [];
      for (const event of events) {
        if (event.event !== undefined && ignoresEvent?.(event.event) === true) continue;
        payloads.push(event.data);
      }
      return payloads;
    };
    const framer = {
      feed: (chunk: Uint8Array) => wanted(parser.feed(chunk)),
      end: () => wanted(parser.end()),
      completed: 0,
    };
    return framer;
  }
  if (framing === 'json-array') {
    const parser = createJsonArrayStreamParser();
    const framer = {
      feed: (chunk: Uint8Array) => {
        const payloads = parser.feed(chunk);
        framer.completed += payloads.length;
        return payloads;
      },
      end: () => [],
      completed: 0,
    };
    return framer;
  }
  const decoder = new TextDecoder('utf-8');
  let text = '';
  return {
    feed: (chunk) => {
      text += decoder.decode(chunk, { stream: true });
      return [];
    },
    end: () => [text + decoder.decode()],
    completed: 0,
  };
}

export function createStreamTap<R>(options: StreamTapOptions<R>): StreamTap<R> {
  const limit = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const framer = createFramer(options.framing, options.sink.ignoresEvent?.bind(options.sink));
  let bytes = 0;
  let pendingBytes = 0;
  let unparsedPayloads = 0;
  let overflowed = false;
  let outcome: TapOutcome<R> | undefined;

  const deliver = (payloads: string[]): void => {
    for (const text of payloads) {
      if (options.sink.feedRaw?.(text) === true) continue;
      const { value, parsed } = parsePayload(text);
      if (!parsed) unparsedPayloads += 1;
      options.sink.feed(value);
    }
  };

  return {
    write(chunk) {
      bytes += chunk.length;
      if (overflowed || outcome !== undefined) return;
      pendingBytes += chunk.length;
      if (pendingBytes > limit) {
        overflowed = true;
        return;
      }
      const before = framer.completed;
      const payloads = framer.feed(chunk);
      if (framer.completed > before) pendingBytes = 0;
      deliver(payloads);
    },
    finish({ sourceEnded }) {
      if (outcome !== undefined) return outcome;
      if (!overflowed && (sourceEnded || options.framing !== 'json')) deliver(framer.end());
      outcome = {
        result: options.sink.result(),
        bytes,
        sourceEnded,
        unparsedPayloads,
        overflowed,
      };
      return outcome;
    },
  };
}
