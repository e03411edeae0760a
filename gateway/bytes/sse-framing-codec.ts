/**
 * Server-sent events framing for the stream tap: events are found in the bytes without decoding
 * them (`scan-server-sent-events.ts`), each byte searched once however the stream is cut, and read
 * in place (`read-event-fields.ts`). An event the sink never reads (by name) is dropped here; a
 * payload of one data line is handed over as bytes (the sink may read it without parsing), one of
 * several lines as text. The one framing whose events can be shared with a reply translator
 * (`share-sse-framing.ts`).
 */
import { Buffer } from 'node:buffer';
import { asBuffer } from './hold-bytes.js';
import { createEventFieldReader, type EventFieldReader } from './read-event-fields.js';
import {
  createServerSentEventScanner,
  SMALL_CHUNK,
  type ServerSentEventScanner,
} from './scan-server-sent-events.js';
import type { EventObserver, SharedFraming } from './share-sse-framing.js';
import { StreamTapBase, type FramingCodec, type TapSettings } from './stream-tap.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function sameBytes(bytes: Uint8Array, start: number, expected: Uint8Array): boolean {
  for (let offset = 0; offset < expected.length; offset += 1) {
    if (bytes[start + offset] !== expected[offset]) return false;
  }
  return true;
}

/** The tap of one SSE stream (a subclass: an event costs no hop to a second object). */
class SseTap<R> extends StreamTapBase<R> implements SharedFraming {
  readonly scanner: ServerSentEventScanner;
  private readonly fields: EventFieldReader = createEventFieldReader();
  // The last event name and whether the sink ignores it: names repeat, so most are neither
  // decoded nor looked up (compared byte for byte with the last one, which is ASCII in practice).
  private lastName = '';
  private lastIgnored = false;
  private first = true;
  /** Sees every framed event (a translator sharing the framing), or null. */
  private observer: EventObserver | null = null;
  eventFields: EventFieldReader | null = null;

  constructor(settings: TapSettings<R>) {
    super(settings);
    this.scanner = createServerSentEventScanner((bytes, start, end) => {
      this.event(bytes, start, end);
    });
    // Small pieces are not shown to an observer: their events are always handed over from the
    // scanner's buffer, never from the piece.
    this.pieces = this.scanner;
  }

  protected override observe(observer: EventObserver): SharedFraming {
    this.observer = observer;
    return this;
  }

  protected feed(chunk: Buffer): number {
    // Line ends found in an earlier chunk are remembered only when lines may end with CR. A small
    // piece is never read in place (its events are handed over from the scanner's buffer, from
    // its start, which the field reader never takes for a continuation).
    if (chunk.length > SMALL_CHUNK && this.scanner.sawCarriageReturn) {
      this.fields.forgetPositions();
    }
    this.observer?.chunk(chunk);
    return this.scanner.feed(chunk);
  }

  protected overflow(chunk: Uint8Array): void {
    // The observer still needs every event: keep framing, stop reading.
    if (this.observer !== null) this.frameOnly(chunk);
    else this.scanner.discard();
  }

  protected passOver(chunk: Uint8Array): void {
    if (this.observer !== null) this.frameOnly(chunk);
  }

  protected end(): void {
    // An event without its closing blank line is dropped, per the spec.
  }

  /** The sink is done, the observer is not: frame the chunk for the observer only. */
  private frameOnly(chunk: Uint8Array): void {
    const buffer = asBuffer(chunk);
    this.observer?.chunk(buffer);
    this.scanner.feed(buffer);
  }

  private event(bytes: Buffer, start: number, end: number): void {
    const { fields, observer } = this;
    if (observer !== null && this.sinkStopped) {
      observer.event(bytes, start, end);
      return;
    }
    let from = start;
    if (this.first) {
      this.first = false;
      // A byte order mark at the start of the stream is not part of the first line.
      if (end - start >= 3 && sameBytes(bytes, start, BOM)) from += 3;
    }
    if (this.scanner.sawCarriageReturn) fields.allowCarriageReturns();
    fields.lineEnds = this.scanner.eventLineEnds;
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
}

/** `text/event-stream` replies. */
export const sseFramingCodec: FramingCodec = {
  createTap: (settings) => new SseTap(settings),
};
