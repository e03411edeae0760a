/**
 * Which usage accumulator and which framing read an upstream reply: chosen by the format the
 * upstream replies in (`adapter.upstreamFormat`), whether the caller streams, and the reply's
 * content type (SSE, a streamed JSON array, or one JSON document). The one table of protocols here.
 */
import type { UpstreamWireFormat } from './protocol-adapter.js';
import {
  createAnthropicMessagesUsageAccumulator,
  extractAnthropicMessagesUsage,
} from './anthropic-messages/convert-anthropic-messages-usage.js';
import {
  createAntigravityUsageAccumulator,
  extractAntigravityUsage,
} from './antigravity/convert-antigravity-usage.js';
import {
  createGeminiGenerateContentUsageAccumulator,
  extractGeminiGenerateContentUsage,
} from './gemini-generate-content/convert-gemini-generate-content-usage.js';
import {
  createOpenAIChatUsageAccumulator,
  extractOpenAIChatUsage,
} from './openai-chat/convert-openai-chat-usage.js';
import {
  createOpenAIResponsesUsageAccumulator,
  extractOpenAIResponsesUsage,
} from './openai-responses/convert-openai-responses-usage.js';
import type { StreamFraming } from '../sse/create-stream-tap.js';
import { createBodyUsageAccumulator } from '../metering/create-body-usage-accumulator.js';
import type { UsageAccumulator, UsageReport } from '../metering/usage-report.js';

const READERS: Record<
  UpstreamWireFormat,
  { stream: () => UsageAccumulator; body: (body: unknown) => UsageReport }
> = {
  'anthropic-messages': {
    stream: createAnthropicMessagesUsageAccumulator,
    body: extractAnthropicMessagesUsage,
  },
  'openai-responses': {
    stream: createOpenAIResponsesUsageAccumulator,
    body: extractOpenAIResponsesUsage,
  },
  'openai-chat': { stream: createOpenAIChatUsageAccumulator, body: extractOpenAIChatUsage },
  'gemini-generate-content': {
    stream: createGeminiGenerateContentUsageAccumulator,
    body: extractGeminiGenerateContentUsage,
  },
  antigravity: { stream: createAntigravityUsageAccumulator, body: extractAntigravityUsage },
};

export interface ReplyReader {
  framing: StreamFraming;
  accumulator: UsageAccumulator;
}

/** SSE when the reply says so; a streamed reply in JSON is a JSON array (Gemini without alt=sse). */
export function replyFraming(options: { stream: boolean; contentType: string }): StreamFraming {
  if (options.contentType.toLowerCase().includes('text/event-stream')) return 'sse';
  return options.stream ? 'json-array' : 'json';
}

export function selectUsageAccumulator(options: {
  format: UpstreamWireFormat;
  stream: boolean;
  contentType: string;
}): ReplyReader {
  const framing = replyFraming(options);
  const reader = READERS[options.format];
  const accumulator =
    framing === 'json' ? createBodyUsageAccumulator(reader.body) : reader.stream();
  return { framing, accumulator };
}
