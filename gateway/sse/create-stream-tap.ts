/**
 * The metering tap (STYLE.md 8): it never changes the bytes passed through; it reads a copy of them
 * into payloads for a usage accumulator and resolves the accumulator's result once, at the end of
 * the stream or when the stream is cancelled or fails. Synchronous: the relay
 * (`pipeline/relay-metered-reply.ts`) writes each chunk as it passes and finishes the tap once.
 *
 * Events are found in the bytes without decoding them (`scan-server-sent-events.ts`): each byte is
 * searched once, however the stream is cut. An event the sink never reads (by name) is dropped
 * there; the sink then gets the payload's bytes (`feedBytes`) and reads what it needs without
 * parsing, and only the payloads it leaves are decoded and parsed.
 */
import { createJsonArrayScanner } from './parse-json-array-stream.js';
import { createEventFieldReader } from './read-event-fields.js';
import { createServerSentEventScanner } from './scan-server-sent-events.js';

/** How the upstream frames its body: SSE events, a streamed JSON array, or one JSON document. */
export type StreamFraming = 'sse' | 'json-array' | 'json';

/** Receives each payload: parsed JSON, or the raw text when it is not JSON (`[DONE]`). */
export interface PayloadSink<R> {
  feed(payload: unknown): void;
  result(): R;
  /** True for an SSE event name whose payload the sink never reads: it is then not parsed. */
  ignoresEvent?(name: string): boolean;
  /**
   * Takes a payload's UTF-8 bytes (valid only during the call) when it can read all it needs from
   * them without parsing (true); false: the payload is decoded, parsed and fed.
   */
  feedBytes?(bytes: Uint8Array, start: number, end: number): boolean;
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
const DONE = Buffer.from('[DONE]');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function asBuffer(chunk: Uint8Array): Buffer {
  // Every Buffer's constructor is Buffer: one property read, far cheaper per piece than
  // `Buffer.isBuffer` or `instanceof`.
  return chunk.constructor === Buffer
    ? (chunk as Buffer)
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

function sameBytes(bytes: Uint8Array, start: number, expected: Uint8Array): boolean {
  for (let offset = 0; offset < expected.length; offset += 1) {
    if (bytes[start + offset] !== expected[offset]) return false;
  }
  return true;
}

/** The framing's byte scanner: `feed` returns the bytes it then holds for an unfinished event. */
interface Framer {
  feed(chunk: Buffer): number;
  discard(): void;
  end(): void;
}

export function createStreamTap<R>(options: StreamTapOptions<R>): StreamTap<R> {
  const { sink } = options;
  const limit = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  let bytes = 0;
  let held = 0;
  let unparsedPayloads = 0;
  let overflowed = false;
  let outcome: TapOutcome<R> | undefined;

  const deliverText = (text: string): void => {
    let value: unknown = text;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      if (text !== '[DONE]') unparsedPayloads += 1;
    }
    sink.feed(value);
  };
  const deliverBytes = (payload: Buffer, start: number, end: number): void => {
    if (end - start === DONE.length && sameBytes(payload, start, DONE)) {
      sink.feed('[DONE]');
      return;
    }
    if (sink.feedBytes?.(payload, start, end) === true) return;
    deliverText(payload.toString('utf8', start, end));
  };

  const framer = createFramer(options.framing, { sink, deliverBytes, deliverText });

  return {
    write(chunk) {
      bytes += chunk.length;
      if (overflowed || outcome !== undefined) return;
      if (held + chunk.length > limit) {
        overflowed = true;
        framer.discard();
        return;
      }
      held = framer.feed(asBuffer(chunk));
    },
    finish({ sourceEnded }) {
      if (outcome !== undefined) return outcome;
      if (!overflowed && (sourceEnded || options.framing !== 'json')) framer.end();
      outcome = {
        result: sink.result(),
        bytes,
        sourceEnded,
        unparsedPayloads,
        overflowed,
      };
      return outcome;
    },
  };
}

function createFramer<R>(
  framing: StreamFraming,
  deliver: {
    sink: PayloadSink<R>;
    deliverBytes: (payload: Buffer, start: number, end: number) => void;
    deliverText: (text: string) => void;
  },
): Framer {
  if (framing === 'sse') return createSseFramer(deliver);
  if (framing === 'json-array') {
    const scanner = createJsonArrayScanner(deliver.deliverBytes);
    return {
      feed: (chunk) => scanner.feed(chunk),
      discard: () => {
        scanner.discard();
      },
      end: () => undefined,
    };
  }
  // One JSON document: kept whole and parsed once at the end.
  let chunks: Buffer[] = [];
  let held = 0;
  return {
    feed: (chunk) => {
      chunks.push(chunk);
      held += chunk.length;
      return held;
    },
    discard: () => {
      chunks = [];
    },
    end: () => {
      deliver.deliverText(new TextDecoder('utf-8').decode(Buffer.concat(chunks, held)));
    },
  };
}

function createSseFramer<R>(deliver: {
  sink: PayloadSink<R>;
  deliverBytes: (payload: Buffer, start: number, end: number) => void;
  deliverText: (text: string) => void;
}): Framer {
  const { sink } = deliver;
  const fields = createEventFieldReader();
  const ignoresEvent = sink.ignoresEvent?.bind(sink);
  // The last event name (its bytes) and whether the sink ignores it: names repeat, so most are
  // neither decoded nor looked up.
  const lastName = new Uint8Array(64);
  let lastNameLength = -1;
  let lastIgnored = false;
  let first = true;

  const ignored = (bytes: Buffer): boolean => {
    if (ignoresEvent === undefined || fields.nameStart === -1) return false;
    const { nameStart, nameEnd } = fields;
    const size = nameEnd - nameStart;
    if (size === lastNameLength) {
      let same = true;
      for (let offset = 0; offset < size && same; offset += 1) {
        same = lastName[offset] === bytes[nameStart + offset];
      }
      if (same) return lastIgnored;
    }
    lastIgnored = ignoresEvent(bytes.toString('utf8', nameStart, nameEnd));
    if (size <= lastName.length) {
      for (let offset = 0; offset < size; offset += 1)
        lastName[offset] = bytes[nameStart + offset] ?? 0;
      lastNameLength = size;
    } else {
      lastNameLength = -1;
    }
    return lastIgnored;
  };

  const scanner = createServerSentEventScanner((bytes, start, end) => {
    let from = start;
    if (first) {
      first = false;
      // A byte order mark at the start of the stream is not part of the first line.
      if (end - start >= 3 && sameBytes(bytes, start, BOM)) from += 3;
    }
    if (scanner.sawCarriageReturn) fields.allowCarriageReturns();
    fields.read(bytes, from, end);
    if (fields.dataLines === 0 || ignored(bytes)) return;
    if (fields.dataLines === 1) deliver.deliverBytes(bytes, fields.dataStart, fields.dataEnd);
    else deliver.deliverText(fields.data());
  });

  return {
    feed: (chunk) => {
      fields.forgetPositions();
      return scanner.feed(chunk);
    },
    discard: () => {
      scanner.discard();
    },
    // An event without its closing blank line is dropped, per the spec.
    end: () => undefined,
  };
}
