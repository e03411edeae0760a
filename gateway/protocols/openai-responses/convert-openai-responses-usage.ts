/**
 * OpenAI Responses usage to buckets (wire-formats.md 2.3, 2.4). `input_tokens` includes cached and
 * cache-write tokens; `output_tokens` includes reasoning. In a stream, usage is only on the terminal
 * event's `response` (`response.completed`, `.incomplete`, `.failed`, or `response.done`); an `error`
 * event also ends the stream. The finish reason is the response's `status` (`completed`, `failed`…),
 * or for an `incomplete` one its `incomplete_details.reason` (`max_output_tokens`, `content_filter`).
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { createTextAccumulator, type TextAccumulator } from '../../metering/accumulate-text.js';
import { convertInclusiveUsage } from './convert-inclusive-usage.js';
import { createJsonFieldReader } from '../../bytes/read-json-fields.js';
import { fieldRules } from '../../bytes/json-field-rules.js';
import { createStringValueReader } from '../../bytes/read-json-string-value.js';
import {
  completeReport,
  asRecord,
  stringField,
  type UsageAccumulator,
  type UsageReport,
} from '../../spec/usage-report.js';

const TERMINAL_EVENTS = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
  'response.done',
]);

export function convertOpenAIResponsesUsage(usage: unknown): {
  usage: UsageBuckets;
  flags: string[];
} {
  const fields = asRecord(usage) ?? {};
  const inputDetails = asRecord(fields.input_tokens_details);
  return convertInclusiveUsage({
    input: fields.input_tokens,
    cached: inputDetails?.cached_tokens,
    cacheWrite: inputDetails?.cache_write_tokens,
    output: fields.output_tokens,
    reasoning: asRecord(fields.output_tokens_details)?.reasoning_tokens,
  });
}

function addOutputText(output: unknown, text: TextAccumulator): void {
  for (const item of Array.isArray(output) ? output : []) {
    const fields = asRecord(item);
    if (fields?.type === 'function_call') text.add(fields.arguments);
    const content = Array.isArray(fields?.content) ? fields.content : [];
    for (const part of content) text.add(asRecord(part)?.text);
  }
}

/** The finish reason of a finished response (none while it is `in_progress` or `queued`). */
function finishReasonsOf(response: Record<string, unknown>): string[] {
  const status = stringField(response.status);
  if (status === null || status === 'in_progress' || status === 'queued') return [];
  if (status !== 'incomplete') return [status];
  return [stringField(asRecord(response.incomplete_details)?.reason) ?? status];
}

function reportFromResponse(response: Record<string, unknown>, text: TextAccumulator): UsageReport {
  const converted =
    response.usage === undefined || response.usage === null
      ? null
      : convertOpenAIResponsesUsage(response.usage);
  return completeReport({
    converted,
    model: stringField(response.model),
    textChars: text.chars,
    error:
      stringField(asRecord(response.error)?.code) ?? stringField(asRecord(response.error)?.type),
    finishReasons: finishReasonsOf(response),
  });
}

/** A non-streamed Responses reply (or an error body). */
export function extractOpenAIResponsesUsage(body: unknown): UsageReport {
  const fields = asRecord(body) ?? {};
  const text = createTextAccumulator();
  addOutputText(fields.output, text);
  return reportFromResponse(fields, text);
}

/**
 * What an event is read for without parsing it: its type and the text of a delta. An event with a
 * `response` (model, terminal usage) is parsed, and so are terminal and error events.
 */
const DELTA = 0;
const TYPE = 0;
const eventFields = createJsonFieldReader(
  fieldRules.object({
    type: fieldRules.capture(TYPE),
    delta: fieldRules.count(DELTA),
    response: fieldRules.bail(),
  }),
  { counts: 1, captures: 1 },
);

function countsDelta(type: string): boolean {
  return type.endsWith('.delta') && type !== 'response.reasoning_summary_text.delta';
}

export function createOpenAIResponsesUsageAccumulator(): UsageAccumulator {
  const text = createTextAccumulator();
  const readString = createStringValueReader();
  let terminal: UsageReport | null = null;
  let model: string | null = null;
  let error: string | null = null;
  return {
    feed(payload) {
      const event = asRecord(payload);
      const type = typeof event?.type === 'string' ? event.type : '';
      const response = asRecord(event?.response);
      if (response !== undefined) model = stringField(response.model) ?? model;
      if (countsDelta(type)) {
        text.add(event?.delta);
      } else if (TERMINAL_EVENTS.has(type) && response !== undefined) {
        terminal = reportFromResponse(response, text);
      } else if (type === 'error') {
        error = stringField(event?.code) ?? 'error';
      }
    },
    feedBytes(bytes, start, end) {
      if (!eventFields.read(bytes, start, end)) return false;
      const typeStart = eventFields.start(TYPE);
      const type =
        typeStart === -1 ? '' : (readString(bytes, typeStart, eventFields.end(TYPE)) ?? '');
      if (countsDelta(type)) text.addChars(eventFields.count(DELTA));
      else if (TERMINAL_EVENTS.has(type) || type === 'error') return false;
      return true;
    },
    // Named `*.done` events (output_text, content_part, output_item, ...) repeat text already
    // counted from the deltas and carry no usage: they are not parsed (often the largest events).
    ignoresEvent: (name) =>
      name.endsWith('.done') && name.startsWith('response.') && !TERMINAL_EVENTS.has(name),
    result() {
      if (terminal !== null) {
        return { ...terminal, model: terminal.model ?? model, textChars: text.chars };
      }
      return {
        usage: null,
        flags: [],
        model,
        textChars: text.chars,
        complete: error !== null,
        provisional: false,
        error,
      };
    },
  };
}
