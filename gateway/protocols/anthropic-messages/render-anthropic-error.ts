/** Anthropic error bodies: `{"type":"error","error":{"type","message"}}` (wire-formats.md 1.5). */
import { messageWithCode, type ErrorView } from '../../errors/error-view.js';
import { encodeEventFrame } from '../../bytes/encode-sse-frame.js';

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

const typeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function anthropicErrorType(statusCode: number): string {
  return typeByStatus[statusCode] ?? (statusCode >= 500 ? 'api_error' : 'invalid_request_error');
}

export function renderAnthropicError(error: ErrorView): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: anthropicErrorType(error.statusCode), message: messageWithCode(error) },
  };
}

/** The in-stream error event (wire-formats.md 1.5), for failures after the headers were sent. */
export function renderAnthropicStreamError(error: ErrorView): string {
  return encodeEventFrame('error', renderAnthropicError(error));
}

/** True when an upstream error body already has the Anthropic shape (safe to pass through). */
export function isAnthropicErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { type?: unknown; error?: { type?: unknown; message?: unknown } };
  return (
    body.type === 'error' &&
    typeof body.error?.type === 'string' &&
    typeof body.error.message === 'string'
  );
}
