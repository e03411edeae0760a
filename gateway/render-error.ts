/** Picks the protocol renderer for an error shape (the one place shared code meets protocols). */
import type { ErrorShape, ErrorView } from './errors/error-view.js';
import { renderAnthropicMessagesError } from './protocols/anthropic-messages/render-anthropic-messages-error.js';
import { renderGeminiGenerateContentError } from './protocols/gemini-generate-content/render-gemini-generate-content-error.js';
import { renderOpenAIResponsesError } from './protocols/openai-responses/render-openai-responses-error.js';

const renderers: Record<ErrorShape, (error: ErrorView) => object> = {
  anthropic: renderAnthropicMessagesError,
  openai: renderOpenAIResponsesError,
  google: renderGeminiGenerateContentError,
};

export function renderErrorBody(shape: ErrorShape, error: ErrorView): object {
  return renderers[shape](error);
}
