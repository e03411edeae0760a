/**
 * The metering tap (STYLE.md 8): it never changes the bytes passed through; it reads a copy of them
 * into payloads for a usage accumulator and resolves the accumulator's result once, at the end of
 * the stream or when the stream is cancelled or fails. Synchronous: the relay
 * (`stages/reply/relay-metered-reply.ts`) writes each chunk as it passes and finishes the tap once.
 *
 * The framing (SSE events, JSON array elements, one JSON document) is a codec picked by name from
 * `framing-codecs.ts`: its decoder finds the payloads and hands each over, as bytes the sink may
 * read without parsing (`feedBytes`), or as text; only the payloads the sink leaves are decoded and
 * parsed. The tap keeps what every framing shares: the byte count, the size limit, the outcome.
 */
import { Buffer } from 'node:buffer';
import type { FramingDecoder, PayloadReceiver, PayloadSink } from './framing-codec.js';
import { FRAMING_CODECS, type StreamFraming } from './framing-codecs.js';
import { asBuffer } from './hold-bytes.js';
import { SMALL_CHUNK } from './scan-server-sent-events.js';
import type { EventObserver, SharedFraming } from './share-sse-framing.js';

export type { PayloadSink } from './framing-codec.js';
export type { StreamFraming } from './framing-codecs.js';
export {
  sharesFraming,
  type EventObserver,
  type FramingSharer,
  type SharedFraming,
} from './share-sse-framing.js';

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

export interface StreamTapOptions<R> {
  framing: StreamFraming;
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
 * A class, not closures: one tap is made per call, and an instance costs one allocation (plus its
 * framing's decoder).
 */
class Tap<R> implements StreamTap<R>, PayloadReceiver {
  private readonly sink: PayloadSink<R>;
  private readonly decoder: FramingDecoder;
  private readonly limit: number;
  private bytes = 0;
  /** Bytes the framing holds for an unfinished payload (or the whole JSON document). */
  private held = 0;
  private unparsedPayloads = 0;
  private overflowed = false;
  private outcome: TapOutcome<R> | undefined;

  constructor(options: StreamTapOptions<R>) {
    this.sink = options.sink;
    this.limit = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.decoder = FRAMING_CODECS[options.framing].createDecoder(this, options.sink);
  }

  observeEvents(observer: EventObserver): SharedFraming | null {
    if (this.bytes > 0 || this.decoder.observe === undefined) return null;
    return this.decoder.observe(observer);
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  write(chunk: Uint8Array): void {
    const size = chunk.length;
    this.bytes += size;
    // Small pieces (a stream cut fine) the short way: straight to the framing, as they are.
    if (
      size <= SMALL_CHUNK &&
      !this.overflowed &&
      this.outcome === undefined &&
      this.held + size <= this.limit
    ) {
      this.held = this.decoder.feedSmall(chunk);
      return;
    }
    if (this.overflowed || this.outcome !== undefined) {
      this.decoder.passOver(chunk);
      return;
    }
    if (this.held + size > this.limit) {
      this.overflowed = true;
      this.decoder.overflow(chunk);
      return;
    }
    this.held = this.decoder.feed(asBuffer(chunk));
  }

  finish({ sourceEnded }: { sourceEnded: boolean }): TapOutcome<R> {
    if (this.outcome !== undefined) return this.outcome;
    // What waited for the end (a JSON document) is read only when it arrived in full.
    if (!this.overflowed && sourceEnded) this.decoder.end();
    this.outcome = {
      result: this.sink.result(),
      bytes: this.bytes,
      sourceEnded,
      unparsedPayloads: this.unparsedPayloads,
      overflowed: this.overflowed,
    };
    return this.outcome;
  }

  deliverBytes(payload: Buffer, start: number, end: number): void {
    if (isDone(payload, start, end)) {
      this.sink.feed('[DONE]');
      return;
    }
    if (this.sink.feedBytes?.(payload, start, end) === true) return;
    this.deliverText(payload.toString('utf8', start, end));
  }

  deliverText(text: string): void {
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
