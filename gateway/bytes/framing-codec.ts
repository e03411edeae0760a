/**
 * What a wire framing plugs into the stream tap (`create-stream-tap.ts`): a codec makes one decoder
 * per stream, which finds the payloads in the bytes written to the tap and hands each to the tap
 * (`PayloadReceiver`), which parses it if it must and feeds it to the usage accumulator
 * (`PayloadSink`). A new framing (an upstream's binary event stream) is one codec file, registered
 * by name in `framing-codecs.ts`.
 *
 * Decoders are on the hot path (STYLE.md 8): one is made per stream, as a class (one allocation,
 * methods on the prototype), and feeding a chunk allocates nothing per chunk.
 */
import type { Buffer } from 'node:buffer';
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

/** What a decoder hands its payloads to (the tap). */
export interface PayloadReceiver {
  /** One payload's UTF-8 bytes (valid only during the call): read in place, or parsed. */
  deliverBytes(bytes: Buffer, start: number, end: number): void;
  /** One payload as text (several data lines joined, or a whole document): parsed and fed. */
  deliverText(text: string): void;
  /** Bytes written to the tap so far (all of them, read or not). */
  readonly bytesWritten: number;
}

/** One stream's framing, fed by the tap. Every `feed…` returns the bytes then held for the payload in progress. */
export interface FramingDecoder {
  /** A piece of at most `SMALL_CHUNK` bytes (which need not be a `Buffer`), the short way. */
  feedSmall(chunk: Uint8Array): number;
  /** A chunk, while the sink reads. */
  feed(chunk: Buffer): number;
  /**
   * The chunk that took the payload in progress past the size limit: the sink reads no more, so
   * the decoder drops what it holds (or keeps framing for an observer, which sees every event).
   */
  overflow(chunk: Uint8Array): void;
  /** A chunk written after the sink stopped reading (past the limit, or the tap finished). */
  passOver(chunk: Uint8Array): void;
  /** The source ended in full, never past the limit: hand over what waited for the end. */
  end(): void;
  /**
   * Optional (SSE): lets `observer` see every event framed from now on (`StreamTap.observeEvents`);
   * absent = the framing cannot be shared.
   */
  observe?(observer: EventObserver): SharedFraming;
}

export interface FramingCodec {
  /** A decoder for one stream, handing payloads to `receiver` (the sink is for its hints). */
  createDecoder(receiver: PayloadReceiver, sink: PayloadSink<unknown>): FramingDecoder;
}
