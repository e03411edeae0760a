/**
 * OpenAI Chat Completions usage to buckets (wire-formats.md 3.3): `prompt_tokens` includes
 * cached and cache-write tokens; `completion_tokens` includes reasoning. In a stream, usage comes in
 * one chunk with `choices: []` (only with `stream_options.include_usage`), and `[DONE]` ends it.
 * The finish reasons are the choices' `finish_reason` (a stream names each choice's once, in the
 * chunk that ends it).
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { createTextAccumulator } from '../../metering/accumulate-text.js';
import { createJsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';
import { createStringValueReader } from '../../bytes/read-json-string-value.js';
import { convertInclusiveUsage } from '../openai-responses/convert-inclusive-usage.js';
import {
  completeReport,
  asRecord,
  stringField,
  type UsageAccumulator,
  type UsageReport,
} from '../../spec/usage-report.js';

export function convertOpenAIChatUsage(usage: unknown): { usage: UsageBuckets; flags: string[] } {
  const fields = asRecord(usage) ?? {};
  const promptDetails = asRecord(fields.prompt_tokens_details);
  return convertInclusiveUsage({
    input: fields.prompt_tokens,
    cached: promptDetails?.cached_tokens,
    cacheWrite: promptDetails?.cache_write_tokens,
    output: fields.completion_tokens,
    reasoning: asRecord(fields.completion_tokens_details)?.reasoning_tokens,
  });
}

function choicesOf(value: unknown): Record<string, unknown>[] {
  const choices: Record<string, unknown>[] = [];
  for (const choice of Array.isArray(value) ? value : []) {
    const fields = asRecord(choice);
    if (fields !== undefined) choices.push(fields);
  }
  return choices;
}

/** A non-streamed `chat.completion` (or an error body). */
export function extractOpenAIChatUsage(body: unknown): UsageReport {
  const fields = asRecord(body) ?? {};
  const text = createTextAccumulator();
  const finishReasons: string[] = [];
  for (const choice of choicesOf(fields.choices)) {
    const reason = stringField(choice.finish_reason);
    if (reason !== null) finishReasons.push(reason);
    const message = asRecord(choice.message);
    text.add(message?.content);
    for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
      text.add(asRecord(asRecord(call)?.function)?.arguments);
    }
  }
  const converted =
    fields.usage === undefined || fields.usage === null
      ? null
      : convertOpenAIChatUsage(fields.usage);
  return completeReport({
    converted,
    model: stringField(fields.model),
    textChars: text.chars,
    error: stringField(asRecord(fields.error)?.type),
    finishReasons,
  });
}

/**
 * What a stream chunk is read for without parsing it: the model, the text of the deltas and tool
 * call arguments, and a choice's `finish_reason` (the last one of the chunk: a stream ends each
 * choice in a chunk of its own). A chunk with usage (`"usage":null`, sent on every chunk when usage was asked for,
 * is not) or an error is parsed.
 */
const TEXT = 0;
const MODEL = 0;
const FINISH = 1;
const QUOTE = 0x22;
const chunkFields = createJsonFieldReader(
  fieldRules.object({
    model: fieldRules.capture(MODEL),
    usage: fieldRules.bailUnlessNull(),
    error: fieldRules.bailUnlessNull(),
    choices: fieldRules.array(
      fieldRules.object({
        finish_reason: fieldRules.capture(FINISH),
        delta: fieldRules.object({
          content: fieldRules.count(TEXT),
          tool_calls: fieldRules.array(
            fieldRules.object({
              function: fieldRules.object({ arguments: fieldRules.count(TEXT) }),
            }),
          ),
        }),
      }),
    ),
  }),
  { counts: 1, captures: 2 },
);

export function createOpenAIChatUsageAccumulator(): UsageAccumulator {
  const text = createTextAccumulator();
  const readString = createStringValueReader();
  // The chunks of a stream repeat their envelope before the text: walked once (read-json-fields.ts).
  const chunks = chunkFields.createPrefixMemo();
  let usage: unknown = null;
  let model: string | null = null;
  let complete = false;
  let error: string | null = null;
  const finishReasons: string[] = [];
  return {
    // Text deltas (most of a stream) are read from the bytes, not parsed.
    feedBytes(bytes, start, end) {
      if (!chunks.read(bytes, start, end)) return false;
      const modelStart = chunkFields.start(MODEL);
      if (modelStart !== -1) {
        const named = readString(bytes, modelStart, chunkFields.end(MODEL));
        if (named !== undefined && named !== '') model = named;
      }
      const finishStart = chunkFields.start(FINISH);
      if (finishStart !== -1 && bytes[finishStart] === QUOTE) {
        const reason = readString(bytes, finishStart, chunkFields.end(FINISH));
        if (reason !== undefined && reason !== '') finishReasons.push(reason);
      }
      text.addChars(chunkFields.count(TEXT));
      return true;
    },
    feed(payload) {
      if (payload === '[DONE]') {
        complete = true;
        return;
      }
      const chunk = asRecord(payload);
      if (chunk === undefined) return;
      const failure = asRecord(chunk.error);
      if (failure !== undefined) error = stringField(failure.type) ?? 'error';
      model = stringField(chunk.model) ?? model;
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
      for (const choice of choicesOf(chunk.choices)) {
        const reason = stringField(choice.finish_reason);
        if (reason !== null) finishReasons.push(reason);
        const delta = asRecord(choice.delta);
        text.add(delta?.content);
        for (const call of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
          text.add(asRecord(asRecord(call)?.function)?.arguments);
        }
      }
    },
    result() {
      const converted = usage === null ? null : convertOpenAIChatUsage(usage);
      const report: UsageReport = {
        usage: converted?.usage ?? null,
        flags: converted?.flags ?? [],
        model,
        textChars: text.chars,
        complete,
        provisional: false,
        error,
      };
      if (finishReasons.length > 0) report.finishReasons = [...finishReasons];
      return report;
    },
  };
}
