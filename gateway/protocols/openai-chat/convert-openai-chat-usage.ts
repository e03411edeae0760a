/**
 * OpenAI Chat Completions usage to buckets (wire-formats.md 3.3): `prompt_tokens` includes
 * cached and cache-write tokens; `completion_tokens` includes reasoning. In a stream, usage comes in
 * one chunk with `choices: []` (only with `stream_options.include_usage`), and `[DONE]` ends it.
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { createTextAccumulator } from '../../metering/accumulate-text.js';
import { sumStringFieldChars } from '../../metering/count-json-string-chars.js';
import { convertInclusiveUsage } from '../../metering/convert-inclusive-usage.js';
import {
  completeReport,
  asRecord,
  stringField,
  type UsageAccumulator,
  type UsageReport,
} from '../../metering/usage-report.js';

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
  for (const choice of choicesOf(fields.choices)) {
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
  });
}

/**
 * A chunk with any of these is parsed: usage (`"usage":null`, sent on every chunk when usage was
 * asked for, is not), an error, tool calls, or JSON that is not compact.
 */
const RAW_SKIP = ['"usage":{', '"error"', '"tool_calls"', '": '];

export function createOpenAIChatUsageAccumulator(): UsageAccumulator {
  const text = createTextAccumulator();
  let usage: unknown = null;
  let model: string | null = null;
  let complete = false;
  let error: string | null = null;
  return {
    // Text deltas (most of a stream) are counted from the raw JSON, not parsed: only once the
    // model is known, and only chunks in OpenAI's compact form with nothing but text to read.
    feedRaw(data) {
      if (
        model === null ||
        data.charCodeAt(0) !== 123 ||
        data.charCodeAt(data.length - 1) !== 125
      ) {
        return false;
      }
      if (RAW_SKIP.some((marker) => data.includes(marker))) return false;
      const chars = sumStringFieldChars(data, 'content');
      if (chars === null) return false;
      text.addChars(chars);
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
        const delta = asRecord(choice.delta);
        text.add(delta?.content);
        for (const call of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
          text.add(asRecord(asRecord(call)?.function)?.arguments);
        }
      }
    },
    result() {
      const converted = usage === null ? null : convertOpenAIChatUsage(usage);
      return {
        usage: converted?.usage ?? null,
        flags: converted?.flags ?? [],
        model,
        textChars: text.chars,
        complete,
        provisional: false,
        error,
      };
    },
  };
}
