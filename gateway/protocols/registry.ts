/**
 * The one table of protocols: for each wire format, its request adapters, usage readers, error
 * renderer and model-list renderer. The only file at the `protocols/` root, and the only one shared
 * gateway code imports under `protocols/`: each `protocols/<name>/` folder is a leaf that imports
 * `spec/`, `bytes/`, `metering/`, `errors/` and its own folder (docs/translation.md).
 *
 * The composition roots pick from it: `routes/register-forward-routes.ts` (adapters, usage readers
 * injected into the forward stage), `routes/register-model-routes.ts` (model lists) and
 * `errors/render-error.ts` (error bodies), so the stages themselves know no protocol.
 */
import type { ErrorShape, ErrorView } from '../errors/error-view.js';
import type { CatalogueModel } from '../models/model-catalogue.js';
import type { RequestAdapter, UsageReaders } from '../spec/protocol-adapter.js';
import type { ReplyReassemblers } from '../spec/reply-reassembler.js';
import { createMessagesStreamReassembler } from './anthropic-messages/reassemble-messages-stream.js';
import { createGenerateContentStreamReassembler } from './google/reassemble-generate-content-stream.js';
import { createChatStreamReassembler } from './openai-chat/reassemble-chat-stream.js';
import { createResponsesStreamReassembler } from './openai-responses/reassemble-responses-stream.js';
import { anthropicMessagesAdapter } from './anthropic-messages/anthropic-messages-adapter.js';
import {
  createAnthropicMessagesUsageAccumulator,
  extractAnthropicMessagesUsage,
} from './anthropic-messages/convert-anthropic-messages-usage.js';
import { renderAnthropicError } from './anthropic-messages/render-anthropic-error.js';
import {
  renderAnthropicModel,
  renderAnthropicModelList,
} from './anthropic-messages/render-anthropic-messages-models.js';
import { antigravityGeminiAdapter } from './antigravity/antigravity-gemini-adapter.js';
import { antigravityMessagesAdapter } from './antigravity/antigravity-messages-adapter.js';
import {
  createAntigravityUsageAccumulator,
  extractAntigravityUsage,
} from './antigravity/convert-antigravity-usage.js';
import {
  createGeminiGenerateContentUsageAccumulator,
  extractGeminiGenerateContentUsage,
} from './gemini-generate-content/convert-gemini-generate-content-usage.js';
import { geminiGenerateContentAdapter } from './gemini-generate-content/gemini-generate-content-adapter.js';
import {
  renderGeminiModel,
  renderGeminiModelList,
} from './gemini-generate-content/render-gemini-generate-content-models.js';
import { renderGoogleError } from './google/render-google-error.js';
import {
  createOpenAIChatUsageAccumulator,
  extractOpenAIChatUsage,
} from './openai-chat/convert-openai-chat-usage.js';
import { openAIChatAdapter } from './openai-chat/openai-chat-adapter.js';
import {
  createOpenAIResponsesUsageAccumulator,
  extractOpenAIResponsesUsage,
} from './openai-responses/convert-openai-responses-usage.js';
import { openAIResponsesAdapter } from './openai-responses/openai-responses-adapter.js';
import { openAIResponsesCompactAdapter } from './openai-responses/openai-responses-compact-adapter.js';
import { renderOpenAIError } from './openai-responses/render-openai-error.js';
import {
  renderOpenAIModel,
  renderOpenAIModelList,
} from './openai-responses/render-openai-responses-models.js';

/** The request adapter of each caller-facing API (a route names one). */
export const ADAPTERS = {
  anthropicMessages: anthropicMessagesAdapter,
  openAIResponses: openAIResponsesAdapter,
  /** Remote compaction (`/v1/responses/compact`): the Responses pass-through, one JSON reply. */
  openAIResponsesCompact: openAIResponsesCompactAdapter,
  /** Chat Completions: translated over Responses, or native, as the upstream says. */
  openAIChat: openAIChatAdapter,
  geminiGenerateContent: geminiGenerateContentAdapter,
  /** The Antigravity messages routes (the Anthropic Messages wire over the Antigravity envelope). */
  antigravityMessages: antigravityMessagesAdapter,
  /** The Antigravity v1beta routes (the Gemini wire over the Antigravity envelope). */
  antigravityGemini: antigravityGeminiAdapter,
} as const satisfies Record<string, RequestAdapter>;

/** How the usage is read out of each upstream wire format (stream and whole body). */
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

/**
 * How a streamed reply in each wire format is rebuilt as the one message it carried (captured
 * bodies keep that, not the frames: docs/captures.md).
 */
export const REPLY_REASSEMBLERS: ReplyReassemblers = {
  'anthropic-messages': createMessagesStreamReassembler,
  'openai-responses': createResponsesStreamReassembler,
  'openai-chat': createChatStreamReassembler,
  'gemini-generate-content': () => createGenerateContentStreamReassembler(),
  antigravity: () => createGenerateContentStreamReassembler({ unwrap: true }),
};

/** The error body of each error family a caller can speak (`errors/render-error.ts` picks one). */
export const ERROR_RENDERERS: Readonly<Record<ErrorShape, (error: ErrorView) => object>> = {
  anthropic: renderAnthropicError,
  openai: renderOpenAIError,
  google: renderGoogleError,
};

export interface ModelRenderer {
  list(models: readonly CatalogueModel[]): object;
  one(model: CatalogueModel): object;
}

/** The model list and model get of each model-list family (`routes/register-model-routes.ts`). */
export const MODEL_RENDERERS = {
  anthropic: { list: renderAnthropicModelList, one: renderAnthropicModel },
  openai: { list: renderOpenAIModelList, one: renderOpenAIModel },
  gemini: { list: renderGeminiModelList, one: renderGeminiModel },
} as const satisfies Record<string, ModelRenderer>;

/**
 * The native Chat Completions usage-chunk stripper (what `ADAPTERS.openAIChat` uses on a native
 * upstream when the caller did not ask for usage), for the hot-path bench and the metering tests.
 */
export { createChatUsageChunkStripper } from './openai-chat/request-chat-stream-usage.js';
