/**
 * Gemini `usageMetadata` (also inside the Antigravity `response`) to buckets: the prompt count includes
 * cached tokens; thoughts are separate from candidates and billed as output; tool-use prompt tokens
 * are billed as input. Shared by the Gemini and Antigravity protocols. Checks `totalTokenCount`.
 */
import { Buffer } from 'node:buffer';
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { checkUsageInvariants, subtractCached } from '../../metering/check-usage-invariants.js';
import {
  asRecord,
  stringField,
  tokenCount,
  type UsageAccumulator,
  type UsageReport,
} from '../../spec/usage-report.js';
import { createTextAccumulator } from '../../metering/accumulate-text.js';
import { createJsonFieldReader, type JsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';
import { createStringValueReader } from '../../bytes/read-json-string-value.js';

export function convertGoogleUsageMetadata(metadata: unknown): {
  usage: UsageBuckets;
  flags: string[];
} {
  const fields = asRecord(metadata) ?? {};
  const flags: string[] = [];
  const prompt = tokenCount(fields.promptTokenCount);
  const cached = tokenCount(fields.cachedContentTokenCount);
  const candidates = tokenCount(fields.candidatesTokenCount);
  const thoughts = tokenCount(fields.thoughtsTokenCount);
  const toolUsePrompt = tokenCount(fields.toolUsePromptTokenCount);
  const checked = checkUsageInvariants({
    inputUncached: subtractCached({ total: prompt, cached, flags }) + toolUsePrompt,
    cacheRead: cached,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output: candidates + thoughts,
    reasoning: thoughts,
  });
  const total = fields.totalTokenCount;
  if (typeof total === 'number' && total !== prompt + candidates + thoughts + toolUsePrompt) {
    flags.push('total-mismatch');
  }
  return { usage: checked.usage, flags: [...flags, ...checked.flags] };
}

/**
 * What a stream chunk is read for without parsing it: the usage snapshot, the model, a candidate's
 * `finishReason` (the last one of the chunk), and the text of the parts. A chunk with an error, a
 * function call or a `finishReason` that is not a string is parsed.
 * The snapshot's counts are read as they are walked when they are plain integers; any other
 * snapshot is kept as text and parsed only if it is still the last one at the end.
 */
const TEXT = 0;
const USAGE = 0;
const MODEL = 1;
const RESPONSE = 2;
const FINISH = 3;
const QUOTE = 0x22;
/** The members of `usageMetadata` the conversion reads (`convertGoogleUsageMetadata`). */
const USAGE_KEYS = [
  'promptTokenCount',
  'cachedContentTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'toolUsePromptTokenCount',
  'totalTokenCount',
] as const;
/** The capture slot of the first of `USAGE_KEYS`. */
const FIRST_COUNT = 4;
/** Digits a count read from bytes may have (below 2^53, so exact). */
const MAX_DIGITS = 15;
const responseMembers = {
  error: fieldRules.bail(),
  usageMetadata: fieldRules.captureObject(
    Object.fromEntries(
      USAGE_KEYS.map((key, index) => [key, fieldRules.capture(FIRST_COUNT + index)]),
    ),
    USAGE,
  ),
  modelVersion: fieldRules.capture(MODEL),
  candidates: fieldRules.array(
    fieldRules.object({
      finishReason: fieldRules.capture(FINISH),
      content: fieldRules.object({
        parts: fieldRules.array(
          fieldRules.object({ text: fieldRules.count(TEXT), functionCall: fieldRules.bail() }),
        ),
      }),
    }),
  ),
};
const slots = { counts: 1, captures: FIRST_COUNT + USAGE_KEYS.length };
const responseFields = createJsonFieldReader(fieldRules.object(responseMembers), slots);
// Antigravity wraps the response: `{response: {…}}` (read only when `response` is an object).
const envelopeFields = createJsonFieldReader(
  fieldRules.object({ response: fieldRules.object(responseMembers, RESPONSE) }),
  slots,
);

/** What a Google response reader offers (see `createGoogleResponseReader`). */
export interface GoogleResponseReader {
  read(response: Record<string, unknown>): void;
  readBytes(bytes: Uint8Array, start: number, end: number): boolean;
  /** A chunk from `start` that ends anywhere before `end`: where it ends, or -1 (parse it). */
  readBytesPrefix(bytes: Uint8Array, start: number, end: number): number;
  result(): UsageReport;
}

/** A class, not closures: one is made per stream (see `bytes/scan-server-sent-events.ts`). */
class ResponseReader implements GoogleResponseReader {
  private readonly text = createTextAccumulator();
  private readonly readString = createStringValueReader();
  private readonly fields: JsonFieldReader;
  private readonly envelope: boolean;
  private metadata: unknown = undefined;
  /** The last snapshot read from bytes, not parsed yet (it wins over `metadata` when set). */
  private metadataText: string | undefined = undefined;
  /**
   * The last snapshot read from bytes as its counts (in the order of `USAGE_KEYS`, -1: absent),
   * when `countsHeld` (it then wins over `metadata`).
   */
  private readonly counts: number[] = USAGE_KEYS.map(() => -1);
  private countsHeld = false;
  private model: string | null = null;
  private finished = false;
  /** The finish reasons of the last chunk that named any. */
  private finishReasons: string[] = [];
  private error: string | null = null;

  constructor(envelope: boolean) {
    this.envelope = envelope;
    this.fields = envelope ? envelopeFields : responseFields;
  }

  read(response: Record<string, unknown>): void {
    const failure = asRecord(response.error);
    if (failure !== undefined) {
      this.error =
        stringField(failure.status) ??
        (typeof failure.code === 'number' ? String(failure.code) : 'error');
    }
    if (response.usageMetadata !== undefined) {
      this.metadata = response.usageMetadata;
      this.metadataText = undefined;
      this.countsHeld = false;
    }
    if (typeof response.modelVersion === 'string') this.model = response.modelVersion;
    const candidates = Array.isArray(response.candidates) ? response.candidates : [];
    let reasons: string[] | null = null;
    for (const candidate of candidates) {
      const fields = asRecord(candidate);
      if (typeof fields?.finishReason === 'string') {
        this.finished = true;
        if (fields.finishReason !== '') (reasons ??= []).push(fields.finishReason);
      }
      const parts = asRecord(fields?.content)?.parts;
      for (const part of Array.isArray(parts) ? parts : []) {
        const partFields = asRecord(part);
        this.text.add(partFields?.text);
        const call = asRecord(partFields?.functionCall);
        if (call !== undefined) this.text.add(JSON.stringify(call.args ?? {}));
      }
    }
    if (reasons !== null) this.finishReasons = reasons;
  }

  readBytes(bytes: Uint8Array, start: number, end: number): boolean {
    if (!this.fields.read(bytes, start, end)) return false;
    if (this.envelope && this.fields.start(RESPONSE) === -1) return false;
    if (!this.plainFinish(bytes)) return false;
    this.take(bytes);
    return true;
  }

  readBytesPrefix(bytes: Uint8Array, start: number, end: number): number {
    const stop = this.fields.readPrefix(bytes, start, end);
    if (stop === -1 || (this.envelope && this.fields.start(RESPONSE) === -1)) return -1;
    if (!this.plainFinish(bytes)) return -1;
    this.take(bytes);
    return stop;
  }

  result(): UsageReport {
    if (this.countsHeld) {
      // What `JSON.parse` of the snapshot gives for the members the conversion reads.
      const metadata: Record<string, number> = {};
      USAGE_KEYS.forEach((key, index) => {
        const count = this.counts[index] ?? -1;
        if (count !== -1) metadata[key] = count;
      });
      this.metadata = metadata;
      this.countsHeld = false;
    } else if (this.metadataText !== undefined) {
      this.metadata = JSON.parse(this.metadataText) as unknown;
      this.metadataText = undefined;
    }
    const { metadata, finished } = this;
    const converted = metadata === undefined ? null : convertGoogleUsageMetadata(metadata);
    const report: UsageReport = {
      usage: converted?.usage ?? null,
      flags: converted?.flags ?? [],
      model: this.model,
      textChars: this.text.chars,
      complete: finished,
      provisional: converted !== null && !finished,
      error: this.error,
    };
    if (this.finishReasons.length > 0) report.finishReasons = this.finishReasons;
    return report;
  }

  /** False when the chunk's last `finishReason` is not a string (only a parse reads the others). */
  private plainFinish(bytes: Uint8Array): boolean {
    const finishStart = this.fields.start(FINISH);
    return finishStart === -1 || bytes[finishStart] === QUOTE;
  }

  /** What `fields` read from a chunk's bytes, taken into the report. */
  private take(bytes: Uint8Array): void {
    const { fields } = this;
    const usageStart = fields.start(USAGE);
    if (usageStart !== -1) {
      const usageEnd = fields.end(USAGE);
      if (this.takeCounts(bytes, usageStart, usageEnd)) {
        this.countsHeld = true;
        this.metadataText = undefined;
      } else {
        const buffer =
          bytes.constructor === Buffer
            ? (bytes as Buffer)
            : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        this.metadataText = buffer.toString('utf8', usageStart, usageEnd);
        this.countsHeld = false;
      }
    }
    const modelStart = fields.start(MODEL);
    if (modelStart !== -1) {
      this.model = this.readString(bytes, modelStart, fields.end(MODEL)) ?? this.model;
    }
    const finishStart = fields.start(FINISH);
    if (finishStart !== -1) {
      this.finished = true;
      const reason = this.readString(bytes, finishStart, fields.end(FINISH));
      if (reason !== undefined && reason !== '') this.finishReasons = [reason];
    }
    this.text.addChars(fields.count(TEXT));
  }

  /**
   * The snapshot from `start` to `end` as counts, when it is an object whose counts are all plain
   * integers (false: keep it as text). A count captured before `start` belongs to an earlier
   * `usageMetadata` of the same chunk (the last one wins): this one does not have it.
   */
  private takeCounts(bytes: Uint8Array, start: number, end: number): boolean {
    if (bytes[start] !== 0x7b) return false;
    const { fields, counts } = this;
    for (let index = 0; index < USAGE_KEYS.length; index += 1) {
      const from = fields.start(FIRST_COUNT + index);
      if (from <= start || from >= end) {
        counts[index] = -1;
        continue;
      }
      const to = fields.end(FIRST_COUNT + index);
      if (to - from > MAX_DIGITS) return false;
      let value = 0;
      for (let at = from; at < to; at += 1) {
        const digit = (bytes[at] ?? 0) - 0x30;
        if (digit < 0 || digit > 9) return false;
        value = value * 10 + digit;
      }
      counts[index] = value;
    }
    return true;
  }
}

/**
 * Reads one `GenerateContentResponse` (a stream chunk or a whole reply) into a report in progress:
 * the last `usageMetadata` wins (running snapshots, never summed); `finishReason` marks the end.
 * `readBytes` reads a chunk from its bytes (false: parse it and `read` it); with `envelope`, the
 * chunk is Antigravity's `{response: {…}}`.
 */
export function createGoogleResponseReader(
  options: { envelope?: boolean } = {},
): GoogleResponseReader {
  return new ResponseReader(options.envelope === true);
}

/**
 * A Google stream's usage (Gemini's chunks, Antigravity's envelopes): one per stream, a class
 * rather than closures. `toResponse` picks the `GenerateContentResponse` out of a parsed payload;
 * bytes go to the reader as they are (it knows the envelope).
 */
export class GoogleStreamUsage implements UsageAccumulator {
  private readonly reader: GoogleResponseReader;

  constructor(
    options: { envelope?: boolean },
    private readonly toResponse: (payload: unknown) => Record<string, unknown> | undefined,
  ) {
    this.reader = createGoogleResponseReader(options);
  }

  feed(payload: unknown): void {
    const response = this.toResponse(payload);
    if (response !== undefined) this.reader.read(response);
  }

  feedBytes(bytes: Uint8Array, start: number, end: number): boolean {
    return this.reader.readBytes(bytes, start, end);
  }

  feedBytesPrefix(bytes: Uint8Array, start: number, end: number): number {
    return this.reader.readBytesPrefix(bytes, start, end);
  }

  result(): UsageReport {
    return this.reader.result();
  }
}
