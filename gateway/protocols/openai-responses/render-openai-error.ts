/**
 * OpenAI error bodies, shared by Responses and Chat Completions:
 * `{"error":{"message","type","param","code"}}` (wire-formats.md 2.5, 3.3).
 */
import type { ErrorView } from '../../errors/error-view.js';
import { encodeDataFrame, encodeEventFrame } from '../../bytes/encode-sse-frame.js';

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

const insufficientQuotaCodes = new Set(['TG_QUOTA_EXHAUSTED', 'TG_BALANCE_EXHAUSTED']);

export function openAIErrorType(error: ErrorView): string {
  if (insufficientQuotaCodes.has(error.code)) return 'insufficient_quota';
  if (error.statusCode === 403) return 'permission_error';
  if (error.statusCode === 429) return 'rate_limit_error';
  if (error.statusCode === 503) return 'service_unavailable_error';
  if (error.statusCode >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function renderOpenAIError(error: ErrorView): OpenAIErrorBody {
  return {
    error: {
      message: error.message,
      type: openAIErrorType(error),
      param: error.param ?? null,
      code: error.code,
    },
  };
}

/** The Responses stream `error` event (flat fields, wire-formats.md 2.5). */
export function renderOpenAIResponsesStreamError(error: ErrorView): string {
  const { error: body } = renderOpenAIError(error);
  const event = { type: 'error', code: body.code, message: body.message, param: null };
  return encodeEventFrame('error', event);
}

/** True when an upstream error body already has the OpenAI shape (safe to pass through). */
export function isOpenAIErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { type?: unknown; error?: { message?: unknown; type?: unknown } };
  return (
    body.type === undefined &&
    typeof body.error?.message === 'string' &&
    typeof body.error.type === 'string'
  );
}

/** The Chat Completions in-stream failure: a `data: {"error":…}` chunk (the SDK throws on it). */
export function renderOpenAIChatStreamError(error: ErrorView): string {
  return encodeDataFrame(renderOpenAIError(error));
}
