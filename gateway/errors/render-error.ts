/** Picks the protocol renderer for an error shape (the one place shared code meets protocols). */
import type { ErrorShape, ErrorView } from './error-view.js';
import { renderAnthropicError } from '../protocols/anthropic-messages/render-anthropic-error.js';
import { renderGoogleError } from '../protocols/google/render-google-error.js';
import { renderOpenAIError } from '../protocols/openai-responses/render-openai-error.js';

const renderers: Record<ErrorShape, (error: ErrorView) => object> = {
  anthropic: renderAnthropicError,
  openai: renderOpenAIError,
  google: renderGoogleError,
};

export function renderErrorBody(shape: ErrorShape, error: ErrorView): object {
  return renderers[shape](error);
}
