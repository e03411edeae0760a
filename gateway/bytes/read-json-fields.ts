/**
 * Reads chosen fields of one JSON document straight from its UTF-8 bytes, without decoding it or
 * building objects: the stream meter's fast path for the events that make up most of a stream (text
 * deltas). It walks the whole document once and checks its grammar (what `JSON.parse` would reject,
 * it rejects), and follows the paths of a rule tree: it sums the length of chosen strings (in UTF-16
 * units, as `JSON.parse(text)…length` gives them), records where chosen values are, and gives up
 * when a field appears that only a full parse can read. A rule applies only to a value of its kind
 * (an object rule to an object, an array rule to an array, a count to a string), as the readers'
 * `asRecord` / `Array.isArray` / `typeof` checks do. A document it gives up on, or rejects, is parsed
 * as before, so a report never depends on which way an event was read. Pure, synchronous.
 *
 * The rule tree is built with `fieldRules` (`json-field-rules.ts`); the kind codes live here, next to
 * the walk that reads them on every value.
 */
import { Buffer } from 'node:buffer';

// What the walk does with a value, by rule kind. Module constants, not exported: an exported binding
// is read through its module cell, which the optimising compiler does not fold into the hot loop.
const SKIP = 0;
const OBJECT = 1;
const ARRAY = 2;
const COUNT = 3;
const CAPTURE = 4;
const BAIL = 5;
const BAIL_UNLESS_NULL = 6;

/** The kind codes, for the rule builders (`json-field-rules.ts`). */
export const RULE_KINDS = {
  skip: SKIP,
  object: OBJECT,
  array: ARRAY,
  count: COUNT,
  capture: CAPTURE,
  bail: BAIL,
  bailUnlessNull: BAIL_UNLESS_NULL,
} as const;

const FAIL = -1;
const MAX_DEPTH = 64;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface FieldRule {
  readonly kind: number;
  readonly slot: number;
  readonly names: readonly Buffer[];
  readonly members: readonly FieldRule[];
  readonly item: FieldRule | null;
}

const EMPTY_NAME = Buffer.alloc(0);

export interface JsonFieldReader {
  /**
   * Reads the document in `bytes` from `start` to `end`. True when it is a valid JSON object and
   * nothing made the reader give up: the slots then hold this document's values.
   */
  read(bytes: Uint8Array, start: number, end: number): boolean;
  /**
   * Reads the document that starts at `start` and ends anywhere before `end` (what follows it is
   * not looked at): where it ends, when it is a valid JSON object and nothing made the reader give
   * up (the slots then hold its values, as `read` of exactly its bytes would leave them); else -1.
   */
  readPrefix(bytes: Uint8Array, start: number, end: number): number;
  /** The UTF-16 length summed over the strings counted into the slot. */
  count(slot: number): number;
  /** True when at least one string (even empty) was counted into the slot. */
  counted(slot: number): boolean;
  /** Where the last value captured into the slot starts; -1 when there was none. */
  start(slot: number): number;
  end(slot: number): number;
  /**
   * A reader of one stream's documents (its `read` is this reader's, the slots are this reader's): a
   * document that begins with the same bytes as the one before, up to and including the opening
   * quote of the first string it counts, is read on from there (`PrefixMemo`); the result is the
   * same as `read`'s.
   */
  createPrefixMemo(): PrefixMemoReader;
}

export interface PrefixMemoReader {
  read(bytes: Uint8Array, start: number, end: number): boolean;
}

/** The longest prefix a memo keeps (a stream event's envelope is far shorter). */
const MAX_PREFIX_BYTES = 512;

/**
 * The walk's state where it reached the opening quote of the first string it counts (a text
 * delta), and the bytes it walked to get there. The events of one stream mostly repeat the same
 * envelope before their text (`{"id":…,"object":…,"created":…,"model":…,"choices":[{"index":0,
 * "delta":{"content":"`); the walk is a function of the bytes it has read, and up to that quote it
 * reads none past it (every token before it is closed before it), so a document with the same
 * bytes there reaches the same state: it is compared (one native call) instead of walked, and the
 * walk goes on from the saved state. Offsets are kept relative to the document's start. One per
 * stream: the events of streams in flight together differ in their ids.
 */
class PrefixMemo implements PrefixMemoReader {
  /** The walked bytes, the quote included; `length` 0: nothing saved yet. */
  bytes: Buffer = EMPTY_NAME;
  length = 0;
  depth = 0;
  rule: FieldRule | null = null;
  readonly stackRule: (FieldRule | null)[] = [];
  readonly stackArray: boolean[] = [];
  readonly stackSlot: number[] = [];
  readonly stackStart: number[] = [];
  // No counts: none was made before the first counted string.
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  constructor(readonly reader: FieldReader) {}

  read(bytes: Uint8Array, start: number, end: number): boolean {
    this.reader.memo = this;
    return this.reader.read(bytes, start, end);
  }

  /** True when the document from `begin` (ending at `stop`) starts with the saved bytes. */
  matches(bytes: Uint8Array, begin: number, stop: number): boolean {
    const { length } = this;
    return (
      length > 0 &&
      stop - begin >= length &&
      this.bytes.compare(bytes, begin, begin + length, 0, length) === 0
    );
  }
}

// The document being read, for the helpers below. Reading is synchronous and never re-entered.
let source: Uint8Array = new Uint8Array(0);
let limit = 0;

function isHex(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x46) ||
      (byte >= 0x61 && byte <= 0x66))
  );
}

function continuation(index: number, low = 0x80, high = 0xbf): boolean {
  const byte = index < limit ? source[index] : undefined;
  return byte !== undefined && byte >= low && byte <= high;
}

/** Bytes of the UTF-8 sequence starting at `index`, or 0 when it is not well formed. */
function sequenceLength(index: number): number {
  const lead = source[index] ?? 0;
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(index + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return continuation(index + 1, low, high) && continuation(index + 2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return continuation(index + 1, low, high) && continuation(index + 2) && continuation(index + 3)
      ? 4
      : 0;
  }
  return 0;
}

/** The index after the escape at `at` (its backslash), or FAIL. */
function escapeEnd(at: number): number {
  if (at + 1 >= limit) return FAIL;
  const escape = source[at + 1];
  if (escape === 0x75) {
    if (at + 5 >= limit) return FAIL;
    if (!isHex(source[at + 2]) || !isHex(source[at + 3])) return FAIL;
    if (!isHex(source[at + 4]) || !isHex(source[at + 5])) return FAIL;
    return at + 6;
  }
  if (
    escape === QUOTE ||
    escape === BACKSLASH ||
    escape === 0x2f ||
    escape === 0x62 ||
    escape === 0x66 ||
    escape === 0x6e ||
    escape === 0x72 ||
    escape === 0x74
  ) {
    return at + 2;
  }
  return FAIL;
}

function digitsEnd(index: number): number {
  let at = index;
  while (at < limit) {
    const byte = source[at] ?? 0;
    if (byte < 0x30 || byte > 0x39) return at;
    at += 1;
  }
  return at;
}

/** The index after the number at `index` (JSON's grammar), or FAIL. */
function numberEnd(index: number): number {
  let at = source[index] === 0x2d ? index + 1 : index;
  const first = at < limit ? (source[at] ?? 0) : 0;
  if (first === 0x30) at += 1;
  else if (first >= 0x31 && first <= 0x39) at = digitsEnd(at + 1);
  else return FAIL;
  if (at < limit && source[at] === 0x2e) {
    const after = digitsEnd(at + 1);
    if (after === at + 1) return FAIL;
    at = after;
  }
  if (at < limit && (source[at] === 0x65 || source[at] === 0x45)) {
    at += 1;
    if (at < limit && (source[at] === 0x2b || source[at] === 0x2d)) at += 1;
    const after = digitsEnd(at);
    if (after === at) return FAIL;
    at = after;
  }
  return at;
}

/** The index after `true`, `false` or `null` at `index`, or FAIL. */
function literalEnd(index: number): number {
  const first = source[index];
  const word = first === 0x74 ? 'true' : first === 0x66 ? 'false' : 'null';
  if (index + word.length > limit) return FAIL;
  for (let offset = 0; offset < word.length; offset += 1) {
    if (source[index + offset] !== word.charCodeAt(offset)) return FAIL;
  }
  return index + word.length;
}

/**
 * The index of the owner's name that the key starting at `keyStart` is, byte for byte and followed by
 * its closing quote; -1 when it is none of them.
 */
function matchName(owner: FieldRule, keyStart: number): number {
  const { names } = owner;
  const bytes = source;
  const stop = limit;
  const first = bytes[keyStart];
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] ?? EMPTY_NAME;
    const size = name.length;
    if (name[0] !== first || keyStart + size >= stop || bytes[keyStart + size] !== QUOTE) continue;
    let offset = 1;
    while (offset < size && name[offset] === bytes[keyStart + offset]) offset += 1;
    if (offset === size) return index;
  }
  return -1;
}

/** What the walk expects next. */
const VALUE = 0;
const AFTER_VALUE = 1;
const KEY = 2;
const FIRST_KEY = 3;
const FIRST_ITEM = 4;

/**
 * One reader: a rule tree and its slots. The walk is one loop with an explicit stack (no call per
 * value), so the bytes of strings, which are most of a document, cost a tight loop each.
 */
class FieldReader implements JsonFieldReader {
  private readonly counts: number[];
  private readonly seen: boolean[];
  private readonly starts: number[];
  private readonly ends: number[];
  // The stack of open containers: the rule of their members (or items), whether an array, and
  // the capture slot (with where the container started) when the container itself is captured.
  private readonly stackRule: (FieldRule | null)[] = new Array<FieldRule | null>(MAX_DEPTH).fill(
    null,
  );
  private readonly stackArray: boolean[] = new Array<boolean>(MAX_DEPTH).fill(false);
  private readonly stackSlot: number[] = new Array<number>(MAX_DEPTH).fill(-1);
  private readonly stackStart: number[] = new Array<number>(MAX_DEPTH).fill(0);
  /** The document being read may be followed by anything (`readPrefix`). */
  private prefix = false;
  /** The memo of the next walk (set by `PrefixMemo.read`, taken by the walk). */
  memo: PrefixMemo | null = null;
  /** Where the document being read starts. */
  private begin = 0;

  constructor(
    private readonly root: FieldRule,
    slots: { counts: number; captures: number },
  ) {
    this.counts = new Array<number>(slots.counts).fill(0);
    this.seen = new Array<boolean>(slots.counts).fill(false);
    this.starts = new Array<number>(slots.captures).fill(-1);
    this.ends = new Array<number>(slots.captures).fill(-1);
  }

  count(slot: number): number {
    return this.counts[slot] ?? 0;
  }

  counted(slot: number): boolean {
    return this.seen[slot] ?? false;
  }

  start(slot: number): number {
    return this.starts[slot] ?? -1;
  }

  end(slot: number): number {
    return this.ends[slot] ?? -1;
  }

  read(bytes: Uint8Array, begin: number, stop: number): boolean {
    this.prefix = false;
    return this.walk(bytes, begin, stop) !== FAIL;
  }

  readPrefix(bytes: Uint8Array, begin: number, stop: number): number {
    this.prefix = true;
    return this.walk(bytes, begin, stop);
  }

  createPrefixMemo(): PrefixMemo {
    return new PrefixMemo(this);
  }

  /**
   * Puts the walk's captures and stack as the memo saved them, for a document from `begin` (the
   * counts stay cleared: none was made before the first counted string).
   */
  private restore(memo: PrefixMemo): void {
    const { begin } = this;
    const { starts, ends, stackRule, stackArray, stackSlot, stackStart } = this;
    for (let index = 0; index < starts.length; index += 1) {
      const start = memo.starts[index] ?? -1;
      starts[index] = start === -1 ? -1 : begin + start;
      ends[index] = start === -1 ? -1 : begin + (memo.ends[index] ?? 0);
    }
    for (let index = 0; index < memo.depth; index += 1) {
      stackRule[index] = memo.stackRule[index] ?? null;
      stackArray[index] = memo.stackArray[index] ?? false;
      stackSlot[index] = memo.stackSlot[index] ?? -1;
      stackStart[index] = begin + (memo.stackStart[index] ?? 0);
    }
  }

  /**
   * Saves the walk's state at the quote at `at` and the document's bytes up to it, but for the
   * walk's rule (the caller's to set); false, saving nothing, when the bytes are too many.
   */
  private save(memo: PrefixMemo, at: number, depth: number): boolean {
    const { begin } = this;
    const length = at + 1 - begin;
    if (length > MAX_PREFIX_BYTES) return false;
    if (memo.bytes.length < length) memo.bytes = Buffer.allocUnsafe(MAX_PREFIX_BYTES);
    memo.bytes.set(source.subarray(begin, begin + length));
    memo.length = length;
    memo.depth = depth;
    const { starts, ends, stackRule, stackArray, stackSlot, stackStart } = this;
    for (let index = 0; index < starts.length; index += 1) {
      const start = starts[index] ?? -1;
      memo.starts[index] = start === -1 ? -1 : start - begin;
      memo.ends[index] = start === -1 ? -1 : (ends[index] ?? 0) - begin;
    }
    for (let index = 0; index < depth; index += 1) {
      memo.stackRule[index] = stackRule[index] ?? null;
      memo.stackArray[index] = stackArray[index] ?? false;
      memo.stackSlot[index] = stackSlot[index] ?? -1;
      memo.stackStart[index] = (stackStart[index] ?? 0) - begin;
    }
    return true;
  }

  /**
   * The walk: where the document ends, or FAIL. With `prefix` the document may be followed by
   * anything, else only by blanks.
   */
  private walk(bytes: Uint8Array, begin: number, stop: number): number {
    const { prefix, memo } = this;
    this.memo = null;
    this.begin = begin;
    // Loops, not `fill`: a builtin call costs more than clearing a few slots.
    const { counts, seen, starts, ends } = this;
    for (let index = 0; index < counts.length; index += 1) {
      counts[index] = 0;
      seen[index] = false;
    }
    for (let index = 0; index < starts.length; index += 1) {
      starts[index] = -1;
      ends[index] = -1;
    }
    source = bytes;
    limit = stop;
    const { stackRule, stackArray, stackSlot, stackStart } = this;
    let at = begin;
    let depth = 0;
    let state = VALUE;
    let rule: FieldRule | null = this.root;
    // Save at the first counted string, unless this walk goes on from that very state.
    let saving = memo !== null;
    if (memo?.matches(bytes, begin, stop) === true) {
      this.restore(memo);
      at = begin + memo.length - 1;
      depth = memo.depth;
      rule = memo.rule;
      saving = false;
    }
    for (;;) {
      let byte = 0;
      while (at < stop) {
        byte = bytes[at] ?? 0;
        if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) break;
        at += 1;
      }
      // The document ends when its object closes (below), so running out of bytes is a failure.
      if (at >= stop) return FAIL;
      if (state === AFTER_VALUE) {
        // Only objects: any other document is left to the parser.
        if (depth === 0) return FAIL;
        const top = depth - 1;
        const inArray = stackArray[top] === true;
        if (byte === 0x2c) {
          at += 1;
          if (inArray) {
            rule = stackRule[top] ?? null;
            state = VALUE;
          } else {
            state = KEY;
          }
          continue;
        }
        if (byte !== (inArray ? 0x5d : 0x7d)) return FAIL;
        at += 1;
        const slot = stackSlot[top] ?? -1;
        if (slot !== -1) {
          this.starts[slot] = stackStart[top] ?? 0;
          this.ends[slot] = at;
        }
        depth = top;
        if (depth === 0) return prefix ? at : this.restIsBlank(at);
        continue;
      }
      if (state === KEY || state === FIRST_KEY) {
        if (state === FIRST_KEY && byte === 0x7d) {
          // An empty object.
          at += 1;
          const top = depth - 1;
          const slot = stackSlot[top] ?? -1;
          if (slot !== -1) {
            this.starts[slot] = stackStart[top] ?? 0;
            this.ends[slot] = at;
          }
          depth = top;
          state = AFTER_VALUE;
          if (depth === 0) return prefix ? at : this.restIsBlank(at);
          continue;
        }
        if (byte !== QUOTE) return FAIL;
        const keyStart = at + 1;
        const owner = stackRule[depth - 1] ?? null;
        let escaped = false;
        at = keyStart;
        // A member the owner reads is found by comparing its names where the key starts: a name
        // followed by the closing quote is the whole key (names are plain text), and its bytes
        // need no second look. Any other key is scanned below, and matches no name.
        const matched = owner === null ? -1 : matchName(owner, keyStart);
        if (matched !== -1) {
          rule = owner?.members[matched] ?? null;
          at = keyStart + (owner?.names[matched]?.length ?? 0);
        } else {
          rule = null;
        }
        while (matched === -1) {
          if (at >= stop) return FAIL;
          const inKey = bytes[at] ?? 0;
          // One test for most bytes (letters): above the backslash, nothing needs a look.
          if (inKey > BACKSLASH) {
            at += 1;
            continue;
          }
          if (inKey === QUOTE) break;
          if (inKey === BACKSLASH) {
            escaped = true;
            at = escapeEnd(at);
            if (at === FAIL) return FAIL;
          } else if (inKey < 0x20) {
            return FAIL;
          } else {
            at += 1;
          }
        }
        // A key written with escapes cannot be compared byte for byte: leave it to the parser.
        if (owner !== null && escaped) return FAIL;
        at += 1;
        while (at < stop) {
          byte = bytes[at] ?? 0;
          if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) break;
          at += 1;
        }
        if (at >= stop || byte !== 0x3a) return FAIL;
        at += 1;
        state = VALUE;
        continue;
      }
      if (state === FIRST_ITEM) {
        if (byte === 0x5d) {
          at += 1;
          const top = depth - 1;
          const slot = stackSlot[top] ?? -1;
          if (slot !== -1) {
            this.starts[slot] = stackStart[top] ?? 0;
            this.ends[slot] = at;
          }
          depth = top;
          state = AFTER_VALUE;
          if (depth === 0) return prefix ? at : this.restIsBlank(at);
          continue;
        }
        rule = stackRule[depth - 1] ?? null;
        state = VALUE;
      }
      // A value, read by `rule`. Only objects as documents: any other is left to the parser.
      if (depth === 0 && byte !== 0x7b) return FAIL;
      const kind = rule === null ? SKIP : rule.kind;
      const slot = rule === null ? -1 : rule.slot;
      if (kind === BAIL) return FAIL;
      if (kind === BAIL_UNLESS_NULL) {
        if (byte !== 0x6e || literalEnd(at) === FAIL) return FAIL;
        at += 4;
        state = AFTER_VALUE;
        continue;
      }
      if (byte === 0x7b || byte === 0x5b) {
        if (depth === MAX_DEPTH) return FAIL;
        const isArray = byte === 0x5b;
        stackArray[depth] = isArray;
        if (isArray) stackRule[depth] = kind === ARRAY ? (rule?.item ?? null) : null;
        else {
          // A capture with members (`captureObject`) reads them too.
          stackRule[depth] =
            kind === OBJECT || (kind === CAPTURE && rule !== null && rule.names.length > 0)
              ? rule
              : null;
        }
        stackSlot[depth] = kind === CAPTURE || (kind === OBJECT && !isArray) ? slot : -1;
        stackStart[depth] = at;
        depth += 1;
        at += 1;
        state = isArray ? FIRST_ITEM : FIRST_KEY;
        continue;
      }
      const valueStart = at;
      if (byte === QUOTE) {
        const counting = kind === COUNT;
        if (counting && saving && memo !== null) {
          saving = false;
          if (this.save(memo, at, depth)) memo.rule = rule;
        }
        let units = 0;
        at += 1;
        for (;;) {
          if (at >= stop) return FAIL;
          const inString = bytes[at] ?? 0;
          if (inString > BACKSLASH && inString < 0x80) {
            at += 1;
            units += 1;
            continue;
          }
          if (inString === QUOTE) break;
          if (inString === BACKSLASH) {
            at = escapeEnd(at);
            if (at === FAIL) return FAIL;
            units += 1;
          } else if (inString < 0x20) {
            return FAIL;
          } else if (inString < 0x80 || !counting) {
            // Other bytes need no check unless counted: a decoder never swallows a quote.
            at += 1;
            units += 1;
          } else {
            const length = sequenceLength(at);
            if (length === 0) return FAIL;
            at += length;
            units += length === 4 ? 2 : 1;
          }
        }
        at += 1;
        if (counting) {
          this.counts[slot] = (this.counts[slot] ?? 0) + units;
          this.seen[slot] = true;
        }
      } else if (byte === 0x74 || byte === 0x66 || byte === 0x6e) {
        at = literalEnd(at);
        if (at === FAIL) return FAIL;
      } else {
        at = numberEnd(at);
        if (at === FAIL) return FAIL;
      }
      if (kind === CAPTURE) {
        this.starts[slot] = valueStart;
        this.ends[slot] = at;
      }
      state = AFTER_VALUE;
    }
  }

  /** `index` when only blanks follow it, else FAIL. */
  private restIsBlank(index: number): number {
    for (let at = index; at < limit; at += 1) {
      const byte = source[at];
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return FAIL;
    }
    return index;
  }
}

export function createJsonFieldReader(
  root: FieldRule,
  slots: { counts: number; captures: number },
): JsonFieldReader {
  return new FieldReader(root, slots);
}
