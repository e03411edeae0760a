/**
 * One `response.create` turn: a streamed `POST /v1/responses` through the gateway's own request
 * path (`app.inject`, so the turn is authorized, admitted, forwarded, relayed, metered and settled
 * exactly as an HTTP call, with its own request id and usage record), each SSE event's JSON sent
 * back as one WebSocket text message. An HTTP error answer (a refusal, or the upstream's error)
 * becomes the socket's error event. The output items and the response id are kept for chaining.
 * If the client leaves mid-turn, the turn's response is destroyed: the request's end
 * (request-end.ts) then aborts the upstream and settles what was delivered.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  createServerSentEventParser,
  type ServerSentEvent,
} from '../../bytes/parse-server-sent-events.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { renderGatewayErrorEvent, renderHttpErrorEvent } from './render-websocket-events.js';

export interface TurnRequest {
  headers: Record<string, string | string[] | undefined>;
  remoteAddress: string;
  body: string;
  /** Sends one message; a promise when the client must read before the turn goes on. */
  send: (text: string) => Promise<void> | null;
  /** Called once the turn's response exists, so a client that leaves can end it. */
  onResponse: (response: ServerResponse) => void;
}

export interface TurnResult {
  /** The id of `response.completed` (or `response.created`), when the turn produced one. */
  responseId: string | null;
  /** The items of every `response.output_item.done`, in order. */
  output: unknown[];
  /** True when the turn ended with `response.completed` (only then may the next turn chain). */
  completed: boolean;
}

const terminalTypes = new Set([
  'response.completed',
  'response.failed',
  'response.incomplete',
  'error',
]);

/** The event's type: the SSE `event:` name, else the `type` field read from the JSON. */
function eventType(event: ServerSentEvent): string | null {
  if (event.event !== undefined) return event.event;
  const match = /"type"\s*:\s*"([^"]+)"/.exec(event.data);
  return match?.[1] ?? null;
}

function readJson(data: string): Record<string, unknown> | null {
  try {
    return JSON.parse(data) as Record<string, unknown>;
  } catch {
    return null;
  }
}

async function readText(stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runWebsocketTurn(
  app: FastifyInstance,
  turn: TurnRequest,
): Promise<TurnResult> {
  const result: TurnResult = { responseId: null, output: [], completed: false };
  const answer = await app.inject({
    method: 'POST',
    url: '/v1/responses',
    headers: turn.headers,
    payload: turn.body,
    remoteAddress: turn.remoteAddress,
    payloadAsStream: true,
  });
  turn.onResponse(answer.raw.res);
  const stream = answer.stream() as AsyncIterable<Buffer>;
  if (answer.statusCode >= 400) {
    const retryAfter = answer.headers['retry-after'];
    void turn.send(
      renderHttpErrorEvent({
        status: answer.statusCode,
        body: await readText(stream),
        retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      }),
    );
    return result;
  }
  const parser = createServerSentEventParser();
  // Set by `handle`, read after the loop.
  const seen = { end: false };
  const handle = (event: ServerSentEvent): Promise<void> | null => {
    const flushed = turn.send(event.data);
    const type = eventType(event);
    if (type === null) return flushed;
    if (terminalTypes.has(type)) seen.end = true;
    if (type === 'response.completed') result.completed = true;
    if (type === 'response.output_item.done') {
      const item = readJson(event.data)?.item;
      if (item !== undefined) result.output.push(item);
    } else if (type === 'response.created' || type === 'response.completed') {
      const response = readJson(event.data)?.response as { id?: unknown } | undefined;
      if (typeof response?.id === 'string') result.responseId = response.id;
    }
    return flushed;
  };
  for await (const chunk of stream) {
    for (const event of parser.feed(chunk)) {
      const flushed = handle(event);
      if (flushed !== null) await flushed;
    }
  }
  for (const event of parser.end()) {
    const flushed = handle(event);
    if (flushed !== null) await flushed;
  }
  if (!seen.end) {
    const detail = 'The stream ended before response.completed.';
    void turn.send(renderGatewayErrorEvent(new GatewayError('TG_UPSTREAM_ERROR', { detail })));
  }
  return result;
}
