/**
 * Sharing the tap's SSE framing with a reply translator working on the same bytes (the native Chat
 * usage-chunk stripper), so the events are found once: the observer sees every event the tap frames
 * (`StreamTap.observeEvents`, `sse-framing-codec.ts`).
 */
import type { Buffer } from 'node:buffer';
import type { EventFieldReader } from './read-event-fields.js';
import type { ServerSentEventScanner } from './scan-server-sent-events.js';

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

/** What a reply translator shares its framing with: a tap (`StreamTap`). */
export interface FramingOwner {
  observeEvents(observer: EventObserver): SharedFraming | null;
}

/** A reply translator that can take its SSE frames from the tap (`StreamTap.observeEvents`). */
export interface FramingSharer {
  /** Called before the first chunk; true when the translator now takes its frames from `tap`. */
  shareFraming(tap: FramingOwner): boolean;
}

export function sharesFraming(value: object): value is FramingSharer {
  return typeof (value as Partial<FramingSharer>).shareFraming === 'function';
}
