/**
 * Pure: what one client message on a Responses WebSocket asks for. A `response.create` (the
 * Responses create body plus `type`; `stream` is implied) becomes the HTTP body of one streamed
 * `POST /v1/responses`: `type`, `generate`, `previous_response_id` and `background` dropped,
 * `stream: true`. A `previous_response_id` naming the connection's last response is expanded as the
 * API does on its socket: that response's input and output items, then the new input. A
 * `generate: false` message (a warm-up) asks for no model output. Anything else is refused.
 */
import { GatewayError } from '../../errors/gateway-error.js';

/** The connection's last response: its id, and its input followed by its output items. */
export interface ConnectionHistory {
  responseId: string;
  items: readonly unknown[];
}

export type MessagePlan =
  | { kind: 'turn'; body: string; input: unknown[] }
  | { kind: 'warmup'; model: unknown; input: unknown[] }
  | { kind: 'refused'; error: GatewayError };

const dropped = new Set(['type', 'generate', 'previous_response_id', 'background', 'stream']);

function refuse(detail: string, param: string | null = null): MessagePlan {
  return { kind: 'refused', error: new GatewayError('TG_BAD_REQUEST', { detail, param }) };
}

/** The request's `input` as a list of items (a string is one user message, as over HTTP). */
function inputItems(input: unknown): unknown[] | null {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : null;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function planWebsocketMessage(text: string, history: ConnectionHistory | null): MessagePlan {
  const message = parseObject(text);
  if (message === null) return refuse('Each WebSocket message is one JSON object.');
  if (message.type !== 'response.create') {
    return refuse(
      `Unknown message type ${JSON.stringify(message.type ?? null)}: this gateway accepts response.create.`,
      'type',
    );
  }
  const ownInput = inputItems(message.input);
  if (ownInput === null) return refuse('input must be a string or a list of items.', 'input');
  const previous = message.previous_response_id;
  let input = ownInput;
  if (previous !== undefined && previous !== null) {
    if (history === null || previous !== history.responseId) {
      const error = new GatewayError('TG_WEBSOCKET_PREVIOUS_RESPONSE_NOT_FOUND', {
        param: 'previous_response_id',
      });
      return { kind: 'refused', error };
    }
    input = [...history.items, ...ownInput];
  }
  if (message.generate === false) return { kind: 'warmup', model: message.model, input };
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message)) {
    if (!dropped.has(name)) body[name] = value;
  }
  body.input = input;
  body.stream = true;
  return { kind: 'turn', body: JSON.stringify(body), input };
}
