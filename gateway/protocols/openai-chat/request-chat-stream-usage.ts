/**
 * Chat Completions passed through natively: a streamed reply carries usage only when the caller set
 * `stream_options.include_usage`. When it did not, the gateway asks the upstream for it (the one
 * body rewrite metering needs) and removes the usage chunk (`choices: []` with `usage`) from what the
 * caller receives, so the caller sees the stream it asked for. Every other byte passes unchanged.
 */
import { Buffer } from 'node:buffer';
import type { ReplyTranslator } from '../../spec/protocol-adapter.js';
import { asRecord } from '../../spec/usage-report.js';
import { createJsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';
import type {
  EventObserver,
  FramingOwner,
  FramingSharer,
  SharedFraming,
} from '../../bytes/share-sse-framing.js';
import { createEventFieldReader, type EventFieldReader } from '../../bytes/read-event-fields.js';
import {
  createServerSentEventScanner,
  type ServerSentEventScanner,
} from '../../bytes/scan-server-sent-events.js';

export interface ChatStreamUsagePlan {
  /** The body to send upstream: the original bytes unless usage had to be requested. */
  body: Buffer | null;
  /** True when the caller did not ask for usage, so its usage chunk must be stripped. */
  stripUsageChunk: boolean;
}

export function requestChatStreamUsage(request: {
  body: Buffer | null;
  json: unknown;
}): ChatStreamUsagePlan {
  const fields = asRecord(request.json);
  const unchanged = { body: request.body, stripUsageChunk: false };
  if (fields?.stream !== true) return unchanged;
  const options = asRecord(fields.stream_options);
  if (options?.include_usage === true) return unchanged;
  const rewritten = { ...fields, stream_options: { ...options, include_usage: true } };
  return { body: Buffer.from(JSON.stringify(rewritten), 'utf8'), stripUsageChunk: true };
}

const LF = 10;
const CR = 13;
const CLOSE_BRACKET = 0x5d;
const EMPTY = Buffer.alloc(0);
const CHOICES = 0;
const USAGE = 1;
const usageChunkFields = createJsonFieldReader(
  fieldRules.object({ choices: fieldRules.capture(CHOICES), usage: fieldRules.capture(USAGE) }),
  { counts: 0, captures: 2 },
);

function isEmptyArray(bytes: Uint8Array, start: number, end: number): boolean {
  if (bytes[start] !== 0x5b) return false;
  for (let index = start + 1; index < end - 1; index += 1) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  }
  return true;
}

/** The usage chunk: `choices` an empty array and `usage` present and not null. */
function isUsageChunk(chunk: unknown): boolean {
  const fields = asRecord(chunk);
  return (
    Array.isArray(fields?.choices) &&
    fields.choices.length === 0 &&
    fields.usage !== undefined &&
    fields.usage !== null
  );
}

function parsesAsUsageChunk(data: string): boolean {
  try {
    return isUsageChunk(JSON.parse(data) as unknown);
  } catch {
    return false;
  }
}

/**
 * Drops the usage chunk from a Chat Completions SSE stream, frame by frame, from the bytes: frames
 * are found by the SSE scanner (each byte searched once, however the stream is cut), and every kept
 * frame is passed on byte for byte. A frame is only looked at closely when it holds an empty array
 * (the usage chunk's `"choices":[]`), and then read from its bytes; a chunk of whole frames with no
 * usage chunk in it is passed on as the same buffer. A class, not closures: one is made per call.
 *
 * When the metering tap frames the same bytes (`shareFraming`, as the relay does), the frames come
 * from the tap's scanner, already read: `push` must then follow the tap's `write` of the same chunk,
 * and finds its frames there.
 */
class ChatUsageChunkStripper implements ReplyTranslator, FramingSharer, EventObserver {
  private readonly fields = createEventFieldReader();
  private scanner: ServerSentEventScanner;
  /** The tap's framing, when the frames come from it (`shareFraming`). */
  private shared: SharedFraming | null = null;
  /** During a shared frame: the tap's reading of its fields, if any. */
  private sharedFields: EventFieldReader | null = null;
  /** Shared framing: bytes pushed, which the tap must have been written first. */
  private pushed = 0;
  /** The chunk being pushed, and the kept frames in it (start, end pairs). */
  private current: Buffer = EMPTY;
  private kept: number[] = [];
  /** A kept frame that began in earlier chunks (copied out of the scanner's buffer). */
  private carried: Buffer | null = null;
  private dropped = false;
  /** Frames completed by the chunk being pushed. */
  private framesInPush = 0;
  /** The last frame ended with CR: a LF right after it belongs to its line end (and its fate). */
  private endedWithCr = false;
  private lastDropped = false;
  // Where the next `]` is, reused across the frames of one chunk.
  private bracketIn: Buffer | null = null;
  private nextBracket = -1;

  constructor() {
    this.scanner = createServerSentEventScanner((bytes, start, end) => {
      this.frame(bytes, start, end);
    });
  }

  shareFraming(tap: FramingOwner): boolean {
    const shared = tap.observeEvents(this);
    if (shared === null) return false;
    this.scanner = shared.scanner;
    this.shared = shared;
    return true;
  }

  /** Shared framing: the tap is about to frame `chunk`. */
  chunk(chunk: Buffer): void {
    this.current = chunk;
  }

  /** Shared framing: one frame, with the tap's reading of its fields when it has one. */
  event(bytes: Buffer, start: number, end: number): void {
    this.sharedFields = this.shared?.eventFields ?? null;
    this.frame(bytes, start, end);
    this.sharedFields = null;
  }

  push(chunk: Buffer): Buffer {
    if (this.shared !== null) {
      this.pushed += chunk.length;
      if (this.pushed !== this.shared.bytesWritten) {
        throw new Error('shared framing: the tap must write each chunk first');
      }
      // The tap's view of the chunk (the same bytes) when it showed it; a small piece it did not
      // show keeps no frame in place (its frames come from the scanner's buffer, carried).
      const current = this.current;
      this.current = EMPTY;
      return this.collect(current);
    }
    // Most small pieces end no frame: they cost the scan and nothing else.
    this.current = chunk;
    this.scanner.feed(chunk);
    this.current = EMPTY;
    return this.collect(chunk);
  }

  /** What the chunk just framed passes on: its kept frames, after any carried over. */
  private collect(chunk: Buffer): Buffer {
    if (this.framesInPush === 0) return EMPTY;
    this.framesInPush = 0;
    const output = this.output(chunk);
    this.dropped = false;
    if (this.kept.length > 0) this.kept = [];
    return output;
  }

  private output(chunk: Buffer): Buffer {
    const { kept } = this;
    const prefix = this.takeCarried();
    // Without kept ranges first: reading `kept[-1]` of an empty array is a slow property lookup.
    if (kept.length === 0) return prefix ?? EMPTY;
    const last = kept[kept.length - 1] ?? 0;
    if (prefix === null && !this.droppedAny() && kept[0] === 0) {
      return last === chunk.length ? chunk : chunk.subarray(0, last);
    }
    let total = prefix?.length ?? 0;
    for (let index = 0; index < kept.length; index += 2) {
      total += (kept[index + 1] ?? 0) - (kept[index] ?? 0);
    }
    const output = Buffer.allocUnsafe(total);
    let offset = prefix === null ? 0 : prefix.copy(output, 0);
    for (let index = 0; index < kept.length; index += 2) {
      offset += chunk.copy(output, offset, kept[index] ?? 0, kept[index + 1] ?? 0);
    }
    return output;
  }

  end(): Buffer {
    // The bytes after the last frame end (an unfinished frame) are passed on unless they are a
    // usage chunk; a LF first goes with the frame before.
    const rest = this.scanner.take();
    this.fields.forgetPositions();
    this.bracketIn = null;
    const lead = this.endedWithCr && rest[0] === LF ? 1 : 0;
    const keepLead = lead === 1 && !this.lastDropped;
    this.endedWithCr = false;
    if (rest.length > lead && this.dropsFrame(rest, lead, rest.length)) {
      return keepLead ? rest.subarray(0, 1) : EMPTY;
    }
    return keepLead ? rest : rest.subarray(lead);
  }

  private takeCarried(): Buffer | null {
    const frame = this.carried;
    this.carried = null;
    return frame;
  }

  private droppedAny(): boolean {
    return this.dropped;
  }

  private frame(bytes: Buffer, frameStart: number, end: number): void {
    if (this.framesInPush === 0) {
      // The first frame of this chunk: positions found in an earlier chunk do not apply.
      this.fields.forgetPositions();
      this.bracketIn = null;
    }
    this.framesInPush += 1;
    let start = frameStart;
    if (this.endedWithCr && bytes[start] === LF) {
      if (!this.lastDropped) this.keep(bytes, start, start + 1);
      start += 1;
    }
    // Read here: the scanner counted the frame's line ends (a LF skipped above was not one).
    // Read by the tap, from `frameStart`: a LF skipped above ends an empty line, which holds no
    // field, so the reading is the same.
    const own = this.sharedFields === null;
    if (own) this.fields.lineEnds = this.scanner.eventLineEnds;
    this.lastDropped = start < end && this.dropsFrame(bytes, start, end);
    if (own) this.fields.lineEnds = 0;
    this.endedWithCr = bytes[end - 1] === CR;
    if (this.lastDropped) this.dropped = true;
    else if (start < end) this.keep(bytes, start, end);
  }

  private keep(bytes: Buffer, start: number, end: number): void {
    const { kept } = this;
    if (bytes === this.current) {
      if (kept.length > 0 && kept[kept.length - 1] === start) kept[kept.length - 1] = end;
      else kept.push(start, end);
      return;
    }
    if (this.carried === null) {
      // A copy (the scanner's buffer is reused): allocating and copying costs less than
      // `Buffer.from` of a view.
      const copy = Buffer.allocUnsafe(end - start);
      bytes.copy(copy, 0, start, end);
      this.carried = copy;
    } else {
      this.carried = Buffer.concat([this.carried, bytes.subarray(start, end)]);
    }
  }

  private hasEmptyArray(bytes: Buffer, start: number, end: number): boolean {
    let at = start;
    for (;;) {
      // -1 stays valid for the rest of the buffer: there is no `]` after the last search.
      if (bytes !== this.bracketIn || (this.nextBracket !== -1 && this.nextBracket < at)) {
        this.bracketIn = bytes;
        this.nextBracket = bytes.indexOf(CLOSE_BRACKET, at);
      }
      const bracket = this.nextBracket;
      if (bracket === -1 || bracket >= end) return false;
      let before = bracket - 1;
      while (before > start && (bytes[before] === 0x20 || bytes[before] === 0x09)) before -= 1;
      if (bytes[before] === 0x5b) return true;
      at = bracket + 1;
    }
  }

  /** The frame's fields are the tap's reading when there is one, else read here. */
  private dropsFrame(bytes: Buffer, start: number, end: number): boolean {
    let fields = this.sharedFields;
    if (fields === null) {
      fields = this.fields;
      if (this.scanner.sawCarriageReturn) fields.allowCarriageReturns();
      fields.read(bytes, start, end);
    }
    if (fields.dataLines === 0) return false;
    if (fields.dataLines > 1) return parsesAsUsageChunk(fields.data());
    const { dataStart, dataEnd } = fields;
    if (!this.hasEmptyArray(bytes, dataStart, dataEnd)) return false;
    if (!usageChunkFields.read(bytes, dataStart, dataEnd)) {
      return parsesAsUsageChunk(bytes.toString('utf8', dataStart, dataEnd));
    }
    const choices = usageChunkFields.start(CHOICES);
    const usage = usageChunkFields.start(USAGE);
    return (
      choices !== -1 &&
      isEmptyArray(bytes, choices, usageChunkFields.end(CHOICES)) &&
      usage !== -1 &&
      bytes[usage] !== 0x6e // null
    );
  }
}

export function createChatUsageChunkStripper(): ReplyTranslator {
  return new ChatUsageChunkStripper();
}
