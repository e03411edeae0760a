/**
 * Reads the fields of one server-sent event from its bytes (as the scanner hands them over), without
 * decoding the data: it reports where the payload is, so a reader can look at the bytes first and
 * decode only what it needs. Follows the WHATWG rules as `eventsource-parser` applies them: a field
 * is the text before the first colon, one space after the colon is dropped, `data` lines are joined
 * with LF, an event without `data` is not dispatched, an empty `event` is no name, an `id` with NUL
 * is ignored, comments and unknown fields are skipped.
 */
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const EMPTY = Buffer.alloc(0);

export interface EventFieldReader {
  /** Reads the event in `bytes` from `start` to `end`; the fields below then describe it. */
  read(bytes: Buffer, start: number, end: number): void;
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

export function createEventFieldReader(): EventFieldReader {
  let bytes: Buffer = EMPTY;
  let dataLines = 0;
  let dataStart = -1;
  let dataEnd = -1;
  let extraData: string[] = [];
  let nameStart = -1;
  let nameEnd = -1;
  let id: string | undefined;
  let carriageReturns = false;
  // Where the next CR and LF are, reused across the events of one chunk (each byte searched once).
  let cachedFor: Buffer | null = null;
  let cachedEnd = 0;
  let nextCr = -2;
  let nextLf = -2;

  const lineEnd = (from: number, end: number): number => {
    if (!carriageReturns) {
      const at = bytes.indexOf(LF, from);
      return at === -1 || at > end ? end : at;
    }
    if (nextCr !== -1 && nextCr < from) nextCr = bytes.indexOf(CR, from);
    if (nextLf !== -1 && nextLf < from) nextLf = bytes.indexOf(LF, from);
    let at = end;
    if (nextCr !== -1 && nextCr < at) at = nextCr;
    if (nextLf !== -1 && nextLf < at) at = nextLf;
    return at;
  };

  const field = (start: number, stop: number): void => {
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
      if (dataLines === 0) {
        dataStart = value;
        dataEnd = stop;
      } else {
        extraData.push(bytes.toString('utf8', value, stop));
      }
      dataLines += 1;
    } else if (
      size === 5 &&
      first === 101 &&
      bytes[start + 1] === 118 &&
      bytes[start + 2] === 101 &&
      bytes[start + 3] === 110 &&
      bytes[start + 4] === 116
    ) {
      nameStart = value < stop ? value : -1;
      nameEnd = value < stop ? stop : -1;
    } else if (size === 2 && first === 105 && bytes[start + 1] === 100) {
      if (!bytes.subarray(value, stop).includes(0)) id = bytes.toString('utf8', value, stop);
    }
  };

  return {
    read(source, start, end) {
      bytes = source;
      dataLines = 0;
      dataStart = -1;
      dataEnd = -1;
      if (extraData.length > 0) extraData = [];
      nameStart = -1;
      nameEnd = -1;
      id = undefined;
      if (source !== cachedFor || start < cachedEnd) {
        nextCr = -2;
        nextLf = -2;
      }
      cachedFor = source;
      cachedEnd = end;
      let position = start;
      while (position < end) {
        const stop = lineEnd(position, end);
        if (stop > position) field(position, stop);
        position = stop + (bytes[stop] === CR && bytes[stop + 1] === LF ? 2 : 1);
      }
    },
    get dataLines() {
      return dataLines;
    },
    get dataStart() {
      return dataStart;
    },
    get dataEnd() {
      return dataEnd;
    },
    data() {
      if (dataLines === 0) return '';
      const first = bytes.toString('utf8', dataStart, dataEnd);
      return extraData.length === 0 ? first : [first, ...extraData].join('\n');
    },
    get nameStart() {
      return nameStart;
    },
    get nameEnd() {
      return nameEnd;
    },
    get id() {
      return id;
    },
    allowCarriageReturns() {
      carriageReturns = true;
    },
    forgetPositions() {
      cachedFor = null;
    },
  };
}
