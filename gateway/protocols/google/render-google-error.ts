/** Google error bodies: `{"error":{"code","message","status"}}` (wire-formats.md 4.5). */
import { messageWithCode, type ErrorView } from '../../errors/error-view.js';
import { encodeDataFrame } from '../../bytes/encode-sse-frame.js';

export interface GoogleErrorBody {
  error: { code: number; message: string; status: string };
}

const statusByHttp: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  414: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  426: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  431: 'INVALID_ARGUMENT',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function googleErrorStatus(statusCode: number): string {
  return statusByHttp[statusCode] ?? (statusCode >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

export function renderGoogleError(error: ErrorView): GoogleErrorBody {
  return {
    error: {
      code: error.statusCode,
      message: messageWithCode(error),
      status: googleErrorStatus(error.statusCode),
    },
  };
}

/** A Gemini SSE chunk carrying an error (wire-formats.md 4.4), for `alt=sse` streams. */
export function renderGoogleStreamError(error: ErrorView): string {
  return encodeDataFrame(renderGoogleError(error));
}

/** True when an upstream error body already has the Google shape (safe to pass through). */
export function isGoogleErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { error?: { code?: unknown; message?: unknown } };
  return typeof body.error?.code === 'number' && typeof body.error.message === 'string';
}
