/**
 * The metering tap (STYLE.md 8), less its framing: it never changes the bytes passed through; it
 * reads a copy of them into payloads for a usage accumulator and resolves the accumulator's result
 * once, at the end of the stream or when the stream is cancelled or fails. This base class keeps
 * what every framing shares (the byte count, the size limit, parsing a payload, the outcome); a
 * framing codec (`framing-codecs.ts`) extends it with the finding of payloads in the bytes.
 *
 * Hot path: one tap is made per call, as a class (one allocation, methods on the prototype), and a
 * codec's tap is a subclass, not a second object, so an event costs no extra hop. Writing a chunk
 * allocates nothing per chunk.
 */
import { Buffer } from 'node:buffer';
import { asBuffer } from './hold-bytes.js';
import { SMALL_CHUNK } from './scan-server-sent-events.js';
import type { EventObserver, SharedFraming } from './share-sse-framing.js';

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

/** Scans a piece of at most `SMALL_CHUNK` bytes (which need not be a `Buffer`); returns the bytes held. */
export interface SmallPieceScanner {
  feedSmall(chunk: Uint8Array): number;
}

/** What every framing's tap is made with. */
export interface TapSettings<R> {
  sink: PayloadSink<R>;
  /** Largest single event (or JSON body) parsed, in bytes. Default 16 MiB. */
  maxEventBytes?: number;
}

const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
const DONE = Buffer.from('[DONE]');

function isDone(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== DONE.length) return false;
  for (let offset = 0; offset < DONE.length; offset += 1) {
    if (bytes[start + offset] !== DONE[offset]) return false;
  }
  return true;
}

/**
 * A framing's tap: a codec implements `feed` (it returns the bytes then held for the payload in
 * progress) and the stops, may set `pieces`, and hands every payload it finds to `deliverBytes` or
 * `deliverText`.
 */
export abstract class StreamTapBase<R> implements StreamTap<R> {
  protected readonly sink: PayloadSink<R>;
  private readonly limit: number;
  private bytes = 0;
  /** Bytes the framing holds for an unfinished payload (or the whole JSON document). */
  private held = 0;
  private unparsedPayloads = 0;
  private overflowed = false;
  private outcome: TapOutcome<R> | undefined;
  /**
   * The framing's scanner of small pieces, set by the codec's constructor; null = small pieces take
   * the way of any chunk. The scanner itself, not a method of the codec's tap: a piece (a stream cut
   * fine) costs one call.
   */
  protected pieces: SmallPieceScanner | null = null;

  constructor(settings: TapSettings<R>) {
    this.sink = settings.sink;
    this.limit = settings.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /** A chunk, while the sink reads. */
  protected abstract feed(chunk: Buffer): number;
  /**
   * The chunk that took the payload in progress past the size limit: the sink reads no more, so
   * the framing drops what it holds (or keeps framing for an observer, which sees every event).
   */
  protected abstract overflow(chunk: Uint8Array): void;
  /** A chunk written after the sink stopped reading (past the limit, or the tap finished). */
  protected abstract passOver(chunk: Uint8Array): void;
  /** The source ended in full, never past the limit: hand over what waited for the end. */
  protected abstract end(): void;

  /**
   * Optional (SSE): from now on, `observer` sees every event framed; absent = the framing cannot be
   * shared (`StreamTap.observeEvents`).
   */
  protected observe?(observer: EventObserver): SharedFraming;

  observeEvents(observer: EventObserver): SharedFraming | null {
    if (this.bytes > 0 || this.observe === undefined) return null;
    return this.observe(observer);
  }

  /** Bytes written so far (all of them, read or not). */
  get bytesWritten(): number {
    return this.bytes;
  }

  /** True once the sink stopped reading (past the size limit, or finished). */
  protected get sinkStopped(): boolean {
    return this.overflowed || this.outcome !== undefined;
  }

  write(chunk: Uint8Array): void {
    const size = chunk.length;
    this.bytes += size;
    // Small pieces (a stream cut fine) the short way: straight to the framing's scanner, as they are.
    const { pieces } = this;
    if (
      pieces !== null &&
      size <= SMALL_CHUNK &&
      !this.overflowed &&
      this.outcome === undefined &&
      this.held + size <= this.limit
    ) {
      this.held = pieces.feedSmall(chunk);
      return;
    }
    if (this.overflowed || this.outcome !== undefined) {
      this.passOver(chunk);
      return;
    }
    if (this.held + size > this.limit) {
      this.overflowed = true;
      this.overflow(chunk);
      return;
    }
    this.held = this.feed(asBuffer(chunk));
  }

  finish({ sourceEnded }: { sourceEnded: boolean }): TapOutcome<R> {
    if (this.outcome !== undefined) return this.outcome;
    // What waited for the end (a JSON document) is read only when it arrived in full.
    if (!this.overflowed && sourceEnded) this.end();
    this.outcome = {
      result: this.sink.result(),
      bytes: this.bytes,
      sourceEnded,
      unparsedPayloads: this.unparsedPayloads,
      overflowed: this.overflowed,
    };
    return this.outcome;
  }

  /** One payload's UTF-8 bytes (valid only during the call): read in place, or parsed. */
  protected deliverBytes(payload: Buffer, start: number, end: number): void {
    if (isDone(payload, start, end)) {
      this.sink.feed('[DONE]');
      return;
    }
    if (this.sink.feedBytes?.(payload, start, end) === true) return;
    this.deliverText(payload.toString('utf8', start, end));
  }

  /** One payload as text (several data lines joined, or a whole document): parsed and fed. */
  protected deliverText(text: string): void {
    let value: unknown = text;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      if (text !== '[DONE]') this.unparsedPayloads += 1;
    }
    this.sink.feed(value);
  }
}

/** A framing, as the tap's table knows it: it makes the tap of one stream. */
export interface FramingCodec {
  createTap<R>(settings: TapSettings<R>): StreamTap<R>;
}
