/**
 * Anthropic Messages usage to buckets (wire-formats.md 1.3, 1.4). `input_tokens` excludes cache
 * reads and writes; cache writes split into 5m / 1h by `cache_creation`, all at 5m when that object
 * is absent; `output_tokens` includes thinking. In a stream, `message_start` gives the input side
 * and a provisional output; every `message_delta` carries running totals that replace (never add to)
 * the earlier values; `message_stop` ends the message. The stop reason is the whole reply's
 * `stop_reason`, or the `delta.stop_reason` of the stream's `message_delta`.
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { createTextAccumulator } from '../../metering/accumulate-text.js';
import { checkUsageInvariants } from '../../metering/check-usage-invariants.js';
import { createJsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';
import { createStringValueReader } from '../../bytes/read-json-string-value.js';
import {
  completeReport,
  asRecord,
  stringField,
  tokenCount,
  type UsageAccumulator,
  type UsageReport,
} from '../../spec/usage-report.js';

const USAGE_FIELDS = [
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'cache_creation',
  'output_tokens',
  'output_tokens_details',
] as const;

export function convertAnthropicMessagesUsage(usage: unknown): {
  usage: UsageBuckets;
  flags: string[];
} {
  const fields = asRecord(usage) ?? {};
  const flags: string[] = [];
  const cacheWrite = tokenCount(fields.cache_creation_input_tokens);
  const split = asRecord(fields.cache_creation);
  let cacheWrite5m = cacheWrite;
  let cacheWrite1h = 0;
  if (split !== undefined) {
    cacheWrite5m = tokenCount(split.ephemeral_5m_input_tokens);
    cacheWrite1h = tokenCount(split.ephemeral_1h_input_tokens);
    if (cacheWrite5m + cacheWrite1h !== cacheWrite) flags.push('cache-write-split-mismatch');
  } else if (cacheWrite > 0) {
    flags.push('cache-write-ttl-unknown');
  }
  const details = asRecord(fields.output_tokens_details);
  const checked = checkUsageInvariants({
    inputUncached: tokenCount(fields.input_tokens),
    cacheRead: tokenCount(fields.cache_read_input_tokens),
    cacheWrite5m,
    cacheWrite1h,
    output: tokenCount(fields.output_tokens),
    reasoning: tokenCount(details?.thinking_tokens),
  });
  return { usage: checked.usage, flags: [...flags, ...checked.flags] };
}

/** A non-streamed Messages reply (or an error body). */
export function extractAnthropicMessagesUsage(body: unknown): UsageReport {
  const fields = asRecord(body) ?? {};
  const converted = fields.usage === undefined ? null : convertAnthropicMessagesUsage(fields.usage);
  const text = createTextAccumulator();
  for (const block of Array.isArray(fields.content) ? fields.content : []) {
    const blockFields = asRecord(block);
    text.add(blockFields?.text);
    text.add(blockFields?.thinking);
    if (blockFields?.type === 'tool_use') text.add(JSON.stringify(blockFields.input ?? {}));
  }
  return completeReport({
    converted,
    model: stringField(fields.model),
    textChars: text.chars,
    error: stringField(asRecord(fields.error)?.type),
    finishReasons: reasonsOf(fields.stop_reason),
  });
}

/** A stop reason as the report's list (empty when there is none). */
function reasonsOf(value: unknown): string[] {
  const reason = stringField(value);
  return reason === null ? [] : [reason];
}

/** Merges running-total usage: a non-null field replaces the earlier value. */
function mergeUsage(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const field of USAGE_FIELDS) {
    const value = update[field];
    if (value !== undefined && value !== null) target[field] = value;
  }
}

const IGNORED_EVENTS = new Set(['ping', 'content_block_start', 'content_block_stop']);

/**
 * What an event is read for without parsing it: its type, and the text of a `content_block_delta`.
 * The events with usage, the model or an error (`message_start`, `message_delta`, `error`) are
 * parsed.
 */
const DELTA_TEXT = 0;
const TYPE = 0;
const eventFields = createJsonFieldReader(
  fieldRules.object({
    type: fieldRules.capture(TYPE),
    delta: fieldRules.object({
      text: fieldRules.count(DELTA_TEXT),
      thinking: fieldRules.count(DELTA_TEXT),
      partial_json: fieldRules.count(DELTA_TEXT),
    }),
  }),
  { counts: 1, captures: 1 },
);
const PARSED_EVENTS = new Set(['message_start', 'message_delta', 'error']);

export function createAnthropicMessagesUsageAccumulator(): UsageAccumulator {
  const text = createTextAccumulator();
  const readString = createStringValueReader();
  const usage: Record<string, unknown> = {};
  let sawUsage = false;
  let sawDelta = false;
  let complete = false;
  let model: string | null = null;
  let error: string | null = null;
  let stopReason: string | null = null;
  return {
    feed(payload) {
      const event = asRecord(payload);
      switch (event?.type) {
        case 'message_start': {
          const message = asRecord(event.message);
          model = stringField(message?.model) ?? model;
          const started = asRecord(message?.usage);
          if (started !== undefined) {
            mergeUsage(usage, started);
            sawUsage = true;
          }
          break;
        }
        case 'message_delta': {
          const update = asRecord(event.usage);
          if (update !== undefined) {
            mergeUsage(usage, update);
            sawUsage = true;
            sawDelta = true;
          }
          stopReason = stringField(asRecord(event.delta)?.stop_reason) ?? stopReason;
          break;
        }
        case 'content_block_delta': {
          const delta = asRecord(event.delta);
          text.add(delta?.text);
          text.add(delta?.thinking);
          text.add(delta?.partial_json);
          break;
        }
        case 'message_stop':
          complete = true;
          break;
        case 'error':
          error = stringField(asRecord(event.error)?.type) ?? 'error';
          break;
        default:
          break;
      }
    },
    feedBytes(bytes, start, end) {
      if (!eventFields.read(bytes, start, end)) return false;
      const typeStart = eventFields.start(TYPE);
      const type =
        typeStart === -1 ? undefined : readString(bytes, typeStart, eventFields.end(TYPE));
      if (type === undefined) return true;
      if (PARSED_EVENTS.has(type)) return false;
      if (type === 'content_block_delta') text.addChars(eventFields.count(DELTA_TEXT));
      else if (type === 'message_stop') complete = true;
      return true;
    },
    // Keep-alives and block boundaries carry neither usage nor counted text: not parsed.
    ignoresEvent: (name) => IGNORED_EVENTS.has(name),
    result() {
      const converted = sawUsage ? convertAnthropicMessagesUsage(usage) : null;
      const report: UsageReport = {
        usage: converted?.usage ?? null,
        flags: converted?.flags ?? [],
        model,
        textChars: text.chars,
        complete,
        provisional: converted !== null && !sawDelta,
        error,
      };
      if (stopReason !== null) report.finishReasons = [stopReason];
      return report;
    },
  };
}
