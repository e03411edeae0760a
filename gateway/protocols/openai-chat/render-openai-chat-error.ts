/**
 * Chat Completions error bodies (the OpenAI shape, PROTOCOLS.md 2.5 and 3.3): request refusals with
 * the offending `param`, and the in-stream `data: {"error":…}` chunk for failures after headers.
 */
import type { ErrorView } from '../../errors/error-view.js';
import { GatewayError } from '../../errors/gateway-error.js';

export interface OpenAIChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A Chat Completions request the Responses upstream cannot honour (rendered as a 400 with `param`). */
export class ChatRequestRefusal extends GatewayError {
  readonly param: string | null;

  constructor(refusal: { param: string | null; message: string }) {
    super('TG_BAD_REQUEST', { message: refusal.message });
    this.param = refusal.param;
  }
}

export function renderChatRequestRefusal(refusal: ChatRequestRefusal): OpenAIChatErrorBody {
  return {
    error: {
      message: refusal.message,
      type: 'invalid_request_error',
      param: refusal.param,
      code: refusal.code,
    },
  };
}

function chatErrorType(error: ErrorView): string {
  if (error.statusCode === 429) return 'rate_limit_error';
  if (error.statusCode === 503) return 'service_unavailable_error';
  if (error.statusCode >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The chunk a streaming Chat client reads as a failure (the SDK throws on an `error` key). */
export function renderOpenAIChatStreamError(error: ErrorView): string {
  const body: OpenAIChatErrorBody = {
    error: { message: error.message, type: chatErrorType(error), param: null, code: error.code },
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** True when an upstream error body already has the OpenAI shape (safe to pass through). */
export function isOpenAIChatErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { type?: unknown; error?: { message?: unknown; type?: unknown } };
  return (
    body.type === undefined &&
    typeof body.error?.message === 'string' &&
    typeof body.error.type === 'string'
  );
}
