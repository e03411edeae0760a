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
import { Buffer } from 'node:buffer';
import { asBuffer } from './hold-bytes.js';
import { createJsonArrayScanner, type JsonArrayScanner } from './parse-json-array-stream.js';
import { createEventFieldReader, type EventFieldReader } from './read-event-fields.js';
import {
  createServerSentEventScanner,
  SMALL_CHUNK,
  type ServerSentEventScanner,
} from './scan-server-sent-events.js';

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
  /**
   * JSON-array framing: takes an element's bytes from `start`, its end not found yet (anywhere
   * before `end`), when it can read all it needs from them; returns where the element ends (the
   * framing goes on from there), or -1 (the framing finds the end and the element is handed over
   * as usual).
   */
  feedBytesPrefix?(bytes: Uint8Array, start: number, end: number): number;
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
  /**
   * SSE only, before the first `write`: `observer` then sees every event the tap frames, so a
   * reply translator working on the same bytes needs no framing of its own. Returns the shared
   * framing, or null when the framing cannot be shared. With an observer the tap keeps framing
   * after the sink stopped (finished, or past the size limit): the observer gets every event of
   * every chunk written.
   */
  observeEvents(observer: EventObserver): SharedFraming | null;
}

/** The tap's SSE framing, as an observer of its events sees it. */
export interface SharedFraming {
  /** The scanner (its line-end count during an event, `take` at the end). */
  readonly scanner: ServerSentEventScanner;
  /**
   * During `EventObserver.event`: the tap's reading of exactly that event's bytes, or null when the
   * tap did not read them so (its sink is done, or a byte order mark was skipped).
   */
  readonly eventFields: EventFieldReader | null;
  /** Bytes written to the tap so far (all of them, read or not). */
  readonly bytesWritten: number;
}

/** What the tap shows an observer of its SSE framing (see `StreamTap.observeEvents`). */
export interface EventObserver {
  /**
   * The chunk `write` is about to frame (as a `Buffer`) when events may lie in it; a small piece
   * (up to `SMALL_CHUNK` bytes) may not be shown, as its events are handed over from the scanner's
   * buffer.
   */
  chunk(chunk: Buffer): void;
  /**
   * One event's bytes, its closing blank line included (valid only during the call; see
   * `SharedFraming` for its line ends and fields).
   */
  event(bytes: Buffer, start: number, end: number): void;
}

/** A reply translator that can take its SSE frames from the tap (`StreamTap.observeEvents`). */
export interface FramingSharer {
  /** Called before the first chunk; true when the translator now takes its frames from `tap`. */
  shareFraming(tap: StreamTap<unknown>): boolean;
}

export function sharesFraming(value: object): value is FramingSharer {
  return typeof (value as Partial<FramingSharer>).shareFraming === 'function';
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

function sameBytes(bytes: Uint8Array, start: number, expected: Uint8Array): boolean {
  for (let offset = 0; offset < expected.length; offset += 1) {
    if (bytes[start + offset] !== expected[offset]) return false;
  }
  return true;
}

/**
 * A class, not closures: one tap is made per call, and an instance costs one allocation. Holds the
 * scanner of its framing: SSE events, JSON array elements, or the chunks of one JSON document.
 */
class Tap<R> implements StreamTap<R>, SharedFraming {
  private readonly sink: PayloadSink<R>;
  private readonly framing: StreamFraming;
  private readonly limit: number;
  private bytes = 0;
  /** Bytes the framing holds for an unfinished event (or the whole JSON document). */
  private held = 0;
  private unparsedPayloads = 0;
  private overflowed = false;
  private outcome: TapOutcome<R> | undefined;
  private readonly events: ServerSentEventScanner | null = null;
  private readonly elements: JsonArrayScanner | null = null;
  private documentChunks: Buffer[] = [];
  private readonly fields: EventFieldReader | null = null;
  // The last event name and whether the sink ignores it: names repeat, so most are neither
  // decoded nor looked up (compared byte for byte with the last one, which is ASCII in practice).
  private lastName = '';
  private lastIgnored = false;
  private first = true;
  /** Sees every framed event (a translator sharing the framing), or null. */
  private observer: EventObserver | null = null;
  eventFields: EventFieldReader | null = null;

  constructor(options: StreamTapOptions<R>) {
    this.sink = options.sink;
    this.framing = options.framing;
    this.limit = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    if (options.framing === 'sse') {
      this.fields = createEventFieldReader();
      this.events = createServerSentEventScanner((bytes, start, end) => {
        this.event(bytes, start, end);
      });
    } else if (options.framing === 'json-array') {
      this.elements = createJsonArrayScanner(
        (bytes, start, end) => {
          this.deliverBytes(bytes, start, end);
        },
        options.sink.feedBytesPrefix?.bind(options.sink) ?? null,
      );
    }
  }

  observeEvents(observer: EventObserver): SharedFraming | null {
    if (this.events === null || this.bytes > 0) return null;
    this.observer = observer;
    return this;
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  get scanner(): ServerSentEventScanner {
    if (this.events === null) throw new Error('the tap frames no SSE events');
    return this.events;
  }

  write(chunk: Uint8Array): void {
    const size = chunk.length;
    this.bytes += size;
    // Small pieces (a stream cut fine) the short way: straight to the scanner, as they are.
    if (
      size <= SMALL_CHUNK &&
      !this.overflowed &&
      this.outcome === undefined &&
      this.held + size <= this.limit
    ) {
      const { events } = this;
      if (events !== null) {
        // Not shown to an observer: a small piece's events are always handed over from the
        // scanner's buffer, never from the piece.
        this.held = events.feedSmall(chunk);
        return;
      }
      if (this.elements !== null) {
        this.held = this.elements.feedSmall(chunk);
        return;
      }
    }
    if (this.overflowed || this.outcome !== undefined) {
      if (this.observer !== null) this.frameOnly(chunk);
      return;
    }
    if (this.held + size > this.limit) {
      this.overflowed = true;
      if (this.observer !== null) {
        // The observer still needs every event: keep framing, stop reading.
        this.frameOnly(chunk);
        return;
      }
      this.events?.discard();
      this.elements?.discard();
      this.documentChunks = [];
      return;
    }
    const buffer = asBuffer(chunk);
    if (this.events !== null) {
      // Line ends found in an earlier chunk are remembered only when lines may end with CR. A
      // small piece is never read in place (its events are handed over from the scanner's buffer,
      // from its start, which the field reader never takes for a continuation).
      if (size > SMALL_CHUNK && this.events.sawCarriageReturn) this.fields?.forgetPositions();
      this.observer?.chunk(buffer);
      this.held = this.events.feed(buffer);
    } else if (this.elements !== null) {
      this.held = this.elements.feed(buffer);
    } else {
      this.documentChunks.push(buffer);
      this.held += size;
    }
  }

  finish({ sourceEnded }: { sourceEnded: boolean }): TapOutcome<R> {
    if (this.outcome !== undefined) return this.outcome;
    // An SSE event without its closing blank line is dropped, per the spec; a JSON document is
    // parsed only when it arrived in full.
    if (!this.overflowed && sourceEnded && this.framing === 'json') {
      const whole = Buffer.concat(this.documentChunks, this.held);
      this.documentChunks = [];
      this.deliverText(new TextDecoder('utf-8').decode(whole));
    }
    this.outcome = {
      result: this.sink.result(),
      bytes: this.bytes,
      sourceEnded,
      unparsedPayloads: this.unparsedPayloads,
      overflowed: this.overflowed,
    };
    return this.outcome;
  }

  /** The sink is done, the observer is not: frame the chunk for the observer only. */
  private frameOnly(chunk: Uint8Array): void {
    const buffer = asBuffer(chunk);
    this.observer?.chunk(buffer);
    this.events?.feed(buffer);
  }

  private event(bytes: Buffer, start: number, end: number): void {
    const fields = this.fields;
    if (fields === null || this.events === null) return;
    const { observer } = this;
    if (observer !== null && (this.overflowed || this.outcome !== undefined)) {
      observer.event(bytes, start, end);
      return;
    }
    let from = start;
    if (this.first) {
      this.first = false;
      // A byte order mark at the start of the stream is not part of the first line.
      if (end - start >= 3 && sameBytes(bytes, start, BOM)) from += 3;
    }
    if (this.events.sawCarriageReturn) fields.allowCarriageReturns();
    fields.lineEnds = this.events.eventLineEnds;
    fields.read(bytes, from, end);
    if (observer !== null) {
      this.eventFields = from === start ? fields : null;
      observer.event(bytes, start, end);
      this.eventFields = null;
    }
    if (fields.dataLines === 0 || this.ignored(bytes, fields)) return;
    if (fields.dataLines === 1) this.deliverBytes(bytes, fields.dataStart, fields.dataEnd);
    else this.deliverText(fields.data());
  }

  private ignored(bytes: Buffer, fields: EventFieldReader): boolean {
    if (this.sink.ignoresEvent === undefined || fields.nameStart === -1) return false;
    const { nameStart, nameEnd } = fields;
    const size = nameEnd - nameStart;
    const last = this.lastName;
    if (size === last.length) {
      let same = true;
      for (let offset = 0; offset < size && same; offset += 1) {
        same = last.charCodeAt(offset) === bytes[nameStart + offset];
      }
      if (same) return this.lastIgnored;
    }
    this.lastName = bytes.toString('utf8', nameStart, nameEnd);
    this.lastIgnored = this.sink.ignoresEvent(this.lastName);
    return this.lastIgnored;
  }

  private deliverBytes(payload: Buffer, start: number, end: number): void {
    if (end - start === DONE.length && sameBytes(payload, start, DONE)) {
      this.sink.feed('[DONE]');
      return;
    }
    if (this.sink.feedBytes?.(payload, start, end) === true) return;
    this.deliverText(payload.toString('utf8', start, end));
  }

  private deliverText(text: string): void {
    let value: unknown = text;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      if (text !== '[DONE]') this.unparsedPayloads += 1;
    }
    this.sink.feed(value);
  }
}

export function createStreamTap<R>(options: StreamTapOptions<R>): StreamTap<R> {
  return new Tap(options);
}
