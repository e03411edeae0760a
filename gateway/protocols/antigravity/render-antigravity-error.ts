/**
 * Errors on the Antigravity routes, in the caller's protocol: Anthropic shape on
 * `/antigravity/v1/messages*`, Google shape on `/antigravity/v1beta/*` (PROTOCOLS.md 1.8, 4.7).
 */
import { messageWithCode, type ErrorView } from '../../errors/error-view.js';

function anthropicType(statusCode: number): string {
  if (statusCode === 429) return 'rate_limit_error';
  if (statusCode === 504) return 'timeout_error';
  if (statusCode >= 500) return 'api_error';
  if (statusCode === 401) return 'authentication_error';
  if (statusCode === 403) return 'permission_error';
  if (statusCode === 404) return 'not_found_error';
  return 'invalid_request_error';
}

function googleStatus(statusCode: number): string {
  if (statusCode === 429) return 'RESOURCE_EXHAUSTED';
  if (statusCode === 504) return 'DEADLINE_EXCEEDED';
  if (statusCode === 502 || statusCode === 503) return 'UNAVAILABLE';
  if (statusCode >= 500) return 'INTERNAL';
  return 'INVALID_ARGUMENT';
}

/** The Anthropic in-stream `error` event. */
export function renderAntigravityMessagesStreamError(error: ErrorView): string {
  const body = {
    type: 'error',
    error: { type: anthropicType(error.statusCode), message: messageWithCode(error) },
  };
  return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
}

/** A Gemini SSE chunk carrying the error (for `alt=sse` streams). */
export function renderAntigravityGeminiStreamError(error: ErrorView): string {
  const body = {
    error: {
      code: error.statusCode,
      message: messageWithCode(error),
      status: googleStatus(error.statusCode),
    },
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** True when a body already has the Anthropic error shape. */
export function isAnthropicShapedError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { type?: unknown; error?: { type?: unknown; message?: unknown } };
  return (
    body.type === 'error' &&
    typeof body.error?.type === 'string' &&
    typeof body.error.message === 'string'
  );
}

/** True when a body already has the Google error shape. */
export function isGoogleShapedError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { error?: { code?: unknown; message?: unknown } };
  return typeof body.error?.code === 'number' && typeof body.error.message === 'string';
}
