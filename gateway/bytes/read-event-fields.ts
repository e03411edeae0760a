/**
 * Reads the fields of one server-sent event from its bytes (as the scanner hands them over), without
 * decoding the data: it reports where the payload is, so a reader can look at the bytes first and
 * decode only what it needs. Follows the WHATWG rules as `eventsource-parser` applies them: a field
 * is the text before the first colon, one space after the colon is dropped, `data` lines are joined
 * with LF, an event without `data` is not dispatched, an empty `event` is no name, an `id` with NUL
 * is ignored, comments and unknown fields are skipped.
 */
import { Buffer } from 'node:buffer';
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const EMPTY = Buffer.alloc(0);

export interface EventFieldReader {
  /** Reads the event in `bytes` from `start` to `end`; the fields below then describe it. */
  read(bytes: Buffer, start: number, end: number): void;
  /**
   * Set before `read` (which puts it back to 0): the line ends the scanner counted in the event, its
   * closing blank line's included (`eventLineEnds`). Its last line is then found from the end,
   * without a search. 0: not known.
   */
  lineEnds: number;
  /** Lines of `data`; 0: nothing to dispatch. */
  readonly dataLines: number;
  /** The value of the only `data` line (when `dataLines` is 1). */
  readonly dataStart: number;
  readonly dataEnd: number;
  /** The values of every `data` line joined with LF, decoded (any number of lines). */
  data(): string;
  /** The `event` value (-1 when there is none or it is empty). */
  readonly nameStart: number;
  readonly nameEnd: number;
  /** The `id` value of this event, decoded; undefined when it has none. */
  readonly id: string | undefined;
  /** Tells the reader that lines may end with CR (the scanner saw one). */
  allowCarriageReturns(): void;
  /** Forgets where line ends were found: call it before each chunk (a buffer may be reused). */
  forgetPositions(): void;
}

/** A class, not closures: one is made per stream (see `scan-server-sent-events.ts`). */
class FieldReader implements EventFieldReader {
  dataLines = 0;
  dataStart = -1;
  dataEnd = -1;
  nameStart = -1;
  nameEnd = -1;
  id: string | undefined = undefined;
  private bytes: Buffer = EMPTY;
  private extraData: string[] = [];
  private carriageReturns = false;
  // Where the next CR and LF are, reused across the events of one chunk (each byte searched once).
  private cachedFor: Buffer | null = null;
  private cachedEnd = 0;
  private nextCr = -2;
  private nextLf = -2;

  lineEnds = 0;

  read(source: Buffer, start: number, end: number): void {
    const { lineEnds } = this;
    this.lineEnds = 0;
    this.bytes = source;
    this.dataLines = 0;
    this.dataStart = -1;
    this.dataEnd = -1;
    if (this.extraData.length > 0) this.extraData = [];
    this.nameStart = -1;
    this.nameEnd = -1;
    this.id = undefined;
    if (source !== this.cachedFor || start < this.cachedEnd) {
      this.nextCr = -2;
      this.nextLf = -2;
    }
    this.cachedFor = source;
    this.cachedEnd = end;
    let position = start;
    const first = source[start];
    if (lineEnds >= 2 && first !== LF && first !== CR) {
      // The event is its lines, each ended by CR, LF or CRLF (a CR and a LF are one line end only
      // when they follow each other), then a blank line. No line but the last is empty, so the
      // last line ends before the last two line ends, found from the end.
      let stop = end - (source[end - 1] === LF && source[end - 2] === CR ? 2 : 1);
      stop -= source[stop - 1] === LF && source[stop - 2] === CR ? 2 : 1;
      for (let line = 2; line < lineEnds; line += 1) {
        // An earlier line (`event`, `id`: short ones), byte by byte.
        let at = position;
        while (at < stop && source[at] !== LF && source[at] !== CR) at += 1;
        if (at > position) this.field(position, at);
        position = at + (source[at] === CR && source[at + 1] === LF ? 2 : 1);
      }
      if (stop > position) this.field(position, stop);
      return;
    }
    while (position < end) {
      const stop = this.lineEnd(position, end);
      if (stop > position) this.field(position, stop);
      position = stop + (source[stop] === CR && source[stop + 1] === LF ? 2 : 1);
    }
  }

  data(): string {
    if (this.dataLines === 0) return '';
    const first = this.bytes.toString('utf8', this.dataStart, this.dataEnd);
    return this.extraData.length === 0 ? first : [first, ...this.extraData].join('\n');
  }

  allowCarriageReturns(): void {
    this.carriageReturns = true;
  }

  forgetPositions(): void {
    this.cachedFor = null;
  }

  private lineEnd(from: number, end: number): number {
    const { bytes } = this;
    if (!this.carriageReturns) {
      const at = bytes.indexOf(LF, from);
      return at === -1 || at > end ? end : at;
    }
    if (this.nextCr !== -1 && this.nextCr < from) this.nextCr = bytes.indexOf(CR, from);
    if (this.nextLf !== -1 && this.nextLf < from) this.nextLf = bytes.indexOf(LF, from);
    let at = end;
    if (this.nextCr !== -1 && this.nextCr < at) at = this.nextCr;
    if (this.nextLf !== -1 && this.nextLf < at) at = this.nextLf;
    return at;
  }

  private field(start: number, stop: number): void {
    const { bytes } = this;
    const first = bytes[start];
    if (first === COLON) return;
    let colon = start;
    while (colon < stop && bytes[colon] !== COLON) colon += 1;
    const size = colon - start;
    let value = colon + 1;
    if (colon === stop) value = stop;
    else if (bytes[value] === SPACE) value += 1;
    if (
      size === 4 &&
      first === 100 &&
      bytes[start + 1] === 97 &&
      bytes[start + 2] === 116 &&
      bytes[start + 3] === 97
    ) {
      if (this.dataLines === 0) {
        this.dataStart = value;
        this.dataEnd = stop;
      } else {
        this.extraData.push(bytes.toString('utf8', value, stop));
      }
      this.dataLines += 1;
    } else if (
      size === 5 &&
      first === 101 &&
      bytes[start + 1] === 118 &&
      bytes[start + 2] === 101 &&
      bytes[start + 3] === 110 &&
      bytes[start + 4] === 116
    ) {
      this.nameStart = value < stop ? value : -1;
      this.nameEnd = value < stop ? stop : -1;
    } else if (size === 2 && first === 105 && bytes[start + 1] === 100) {
      if (!bytes.subarray(value, stop).includes(0)) this.id = bytes.toString('utf8', value, stop);
    }
  }
}

export function createEventFieldReader(): EventFieldReader {
  return new FieldReader();
}
