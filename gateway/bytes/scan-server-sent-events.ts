/**
 * Finds where server-sent events end in a byte stream, incrementally and without decoding: every
 * byte is looked at once (the search resumes where the previous chunk stopped), CR, LF and CRLF
 * line ends are recognised (also split across chunks), and the bytes of an event split over
 * several chunks are copied into one reusable buffer, so a completed event is always one contiguous
 * range. Whole chunks are searched with `indexOf` (native); small pieces byte by byte in JavaScript,
 * which costs less than a native call for a few bytes.
 */
import { Buffer } from 'node:buffer';
import { HeldBytes } from './hold-bytes.js';

const LF = 10;
const CR = 13;
/** Chunks up to this size are scanned in JavaScript; bigger ones with native `indexOf`. */
export const SMALL_CHUNK = 24;

/**
 * Receives one event's bytes: from `start` up to `end`, its closing blank line included. The buffer
 * is only valid during the call (it may be the scanner's reused buffer).
 */
export type EventBytesHandler = (bytes: Buffer, start: number, end: number) => void;

export interface ServerSentEventScanner {
  /**
   * Feeds one chunk; calls the handler for every event it completes, in order. Returns the bytes
   * then held for the event in progress.
   */
  feed(chunk: Buffer): number;
  /** The same, for a piece of at most `SMALL_CHUNK` bytes (which need not be a `Buffer`). */
  feedSmall(chunk: Uint8Array): number;
  /** Bytes held for the event in progress (not yet ended by a blank line). */
  readonly heldBytes: number;
  /** True once a CR was seen: lines may then end with a lone CR. */
  readonly sawCarriageReturn: boolean;
  /**
   * During the handler's call: the line ends (CR, LF or CRLF) the event holds, its closing blank
   * line included, so the field reader can find its last line without searching.
   */
  readonly eventLineEnds: number;
  /** Forgets the bytes held (the event in progress is dropped). */
  discard(): void;
  /** Hands over a copy of the bytes held (an event without its closing blank line) and forgets them. */
  take(): Buffer;
}

/**
 * A class, not closures: one is made per stream, and a class instance costs one allocation (its
 * methods live on the prototype). It is its own hold (it extends `HeldBytes`), so a piece reaches
 * the held bytes without going through a second object.
 */
class Scanner extends HeldBytes implements ServerSentEventScanner {
  /** True at the start of a line: a line end there ends the event (a blank line). */
  private atLineStart = true;
  /** True when the previous chunk ended with a CR: a LF starting this chunk belongs to it. */
  private afterCarriageReturn = false;
  sawCarriageReturn = false;
  eventLineEnds = 0;
  /** Line ends seen in the event in progress. */
  private lineEnds = 0;

  constructor(private readonly onEvent: EventBytesHandler) {
    super();
  }

  get heldBytes(): number {
    return this.length;
  }

  feedSmall(chunk: Uint8Array): number {
    let from = 0;
    if (this.afterCarriageReturn) {
      this.afterCarriageReturn = false;
      if (chunk[0] === LF) {
        // The LF of a CRLF split from its CR is held as it is (it starts the next event).
        from = 1;
        this.append(chunk, 0, 1);
      }
    }
    this.scanBytes(chunk, from);
    return this.length;
  }

  feed(chunk: Buffer): number {
    if (chunk.length <= SMALL_CHUNK) return this.feedSmall(chunk);
    let from = 0;
    if (this.afterCarriageReturn) {
      this.afterCarriageReturn = false;
      if (chunk[0] === LF) from = 1;
    }
    const eventStart = this.scanNative(chunk, from);
    if (eventStart < chunk.length) this.append(chunk, eventStart, chunk.length);
    return this.length;
  }

  discard(): void {
    this.release();
    this.lineEnds = 0;
  }

  take(): Buffer {
    const rest = Buffer.from(this.buffer.subarray(0, this.length));
    this.release();
    this.atLineStart = true;
    this.afterCarriageReturn = false;
    this.lineEnds = 0;
    return rest;
  }

  /** The held bytes are one whole event. */
  private emitHeld(): void {
    const { buffer, length } = this;
    this.clear();
    this.eventLineEnds = this.lineEnds;
    this.lineEnds = 0;
    this.onEvent(buffer, 0, length);
  }

  /** An event ends just before `end` in `chunk`; `from` is where it starts in the chunk. */
  private complete(chunk: Buffer, from: number, end: number): void {
    if (this.length === 0) {
      this.eventLineEnds = this.lineEnds;
      this.lineEnds = 0;
      this.onEvent(chunk, from, end);
      return;
    }
    this.append(chunk, from, end);
    this.emitHeld();
  }

  /**
   * Byte by byte, for small pieces: each byte is copied into the hold as it is looked at (most
   * pieces end no event), and a completed event is handed over from the hold.
   */
  private scanBytes(chunk: Uint8Array, from: number): void {
    // The size is read once: a typed array's length is not free in the loop's test.
    const size = chunk.length;
    if (this.length + size > this.capacity) this.reserve(size);
    let buffer = this.buffer;
    let length = this.length;
    let atLineStart = this.atLineStart;
    for (let index = from; index < size; index += 1) {
      const byte = chunk[index] ?? 0;
      buffer[length] = byte;
      length += 1;
      // One test for most bytes: CR (13) and LF (10) are the only line ends.
      if (byte > CR || (byte !== LF && byte !== CR)) {
        atLineStart = false;
        continue;
      }
      if (byte === CR) {
        this.sawCarriageReturn = true;
        // A LF right after belongs to this line end; the event (if any) then ends after it.
        if (chunk[index + 1] === LF) {
          index += 1;
          buffer[length] = LF;
          length += 1;
        } else if (index + 1 === size) {
          this.afterCarriageReturn = true;
        }
      }
      this.lineEnds += 1;
      if (atLineStart) {
        this.length = length;
        this.emitHeld();
        length = 0;
        this.reserve(size - index);
        buffer = this.buffer;
      }
      atLineStart = true;
    }
    this.length = length;
    this.atLineStart = atLineStart;
  }

  /** With native searches for CR and LF, for whole chunks. Returns where the held bytes start. */
  private scanNative(chunk: Buffer, from: number): number {
    let eventStart = 0;
    let position = from;
    let nextCr = chunk.indexOf(CR, position);
    if (nextCr !== -1) this.sawCarriageReturn = true;
    let nextLf = chunk.indexOf(LF, position);
    while (nextLf !== -1 || nextCr !== -1) {
      let lineEnd: number;
      let after: number;
      if (nextCr !== -1 && (nextLf === -1 || nextCr < nextLf)) {
        lineEnd = nextCr;
        after = nextLf === nextCr + 1 ? nextCr + 2 : nextCr + 1;
        if (nextCr + 1 === chunk.length) this.afterCarriageReturn = true;
      } else {
        lineEnd = nextLf;
        after = nextLf + 1;
      }
      this.lineEnds += 1;
      if (lineEnd === position && this.atLineStart) {
        this.complete(chunk, eventStart, after);
        eventStart = after;
      }
      this.atLineStart = true;
      position = after;
      if (nextCr !== -1 && nextCr < position) nextCr = chunk.indexOf(CR, position);
      if (nextLf !== -1 && nextLf < position) nextLf = chunk.indexOf(LF, position);
    }
    if (position < chunk.length) this.atLineStart = false;
    return eventStart;
  }
}

export function createServerSentEventScanner(onEvent: EventBytesHandler): ServerSentEventScanner {
  return new Scanner(onEvent);
}
