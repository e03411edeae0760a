/**
 * Pure: the events the gateway itself sends on a Responses WebSocket. Errors take the socket's
 * wrapped shape, `{"type":"error","status":<http status>,"error":{message,type,param,code}}` with
 * the optional `headers` object (docs/wire-formats.md, Responses over WebSocket), which clients map
 * back to the HTTP status they would have seen. A warm-up (`generate: false`) is answered with
 * `response.created` and `response.completed`, no output and no tokens.
 */
import { randomUUID } from 'node:crypto';
import { renderErrorBody } from '../../errors/render-error.js';
import type { GatewayError } from '../../errors/gateway-error.js';

interface ErrorEvent {
  type: 'error';
  status: number;
  error: unknown;
  headers?: Record<string, string>;
}

function retryHeaders(retryAfter: string | undefined): Pick<ErrorEvent, 'headers'> {
  return retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } };
}

/** A gateway refusal as the socket's error event. */
export function renderGatewayErrorEvent(error: GatewayError): string {
  const body = renderErrorBody('openai', error) as { error: unknown };
  const retryAfter =
    error.retryAfterSeconds === undefined ? undefined : `${error.retryAfterSeconds}`;
  const event: ErrorEvent = {
    type: 'error',
    status: error.statusCode,
    error: body.error,
    ...retryHeaders(retryAfter),
  };
  return JSON.stringify(event);
}

/** A call answered with an HTTP error status (a refusal or the upstream's error) as the error event. */
export function renderHttpErrorEvent(answer: {
  status: number;
  body: string;
  retryAfter: string | undefined;
}): string {
  let error: unknown = { message: answer.body, type: 'server_error', param: null, code: null };
  try {
    const parsed = JSON.parse(answer.body) as { error?: unknown };
    if (typeof parsed.error === 'object' && parsed.error !== null) error = parsed.error;
  } catch {
    // Not JSON: the text is the message.
  }
  const event: ErrorEvent = {
    type: 'error',
    status: answer.status,
    error,
    ...retryHeaders(answer.retryAfter),
  };
  return JSON.stringify(event);
}

/** The two events answering a warm-up, and the response id it leaves for chaining. */
export function renderWarmupEvents(model: unknown, now: number): { id: string; events: string[] } {
  const id = `resp_${randomUUID().replaceAll('-', '')}`;
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(now / 1000),
    status: 'in_progress',
    model: typeof model === 'string' ? model : null,
    output: [],
    usage: null,
  };
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  const completed = { ...response, status: 'completed', usage };
  return {
    id,
    events: [
      JSON.stringify({ type: 'response.created', sequence_number: 0, response }),
      JSON.stringify({ type: 'response.completed', sequence_number: 1, response: completed }),
    ],
  };
}
