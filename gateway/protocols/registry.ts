/**
 * The usage reader of every wire format, the one table of protocols on the metering side. Only the
 * composition root (`routes/register-forward-routes.ts`) imports it and injects it into the
 * forward stage, so the pipeline itself knows no protocol.
 */
import type { UsageReaders } from '../spec/protocol-adapter.js';
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

export const USAGE_READERS: UsageReaders = {
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
