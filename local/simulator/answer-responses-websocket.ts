/**
 * The fake's Responses WebSocket (`GET /v1/responses` upgrade), as the API's WebSocket mode
 * behaves (docs/wire-formats.md, Responses over WebSocket): the key is checked before the 101 (a
 * wrong one gets the HTTP 401 in the OpenAI shape); each `response.create` runs one response at a
 * time, its events (the same as the HTTP stream's, from answerOpenAIResponses) sent as one text
 * message each, no SSE framing; `previous_response_id` chains from the connection's last response
 * (its input and output before the new input), and any other id is `previous_response_not_found`;
 * `generate: false` warms up (response.created, response.completed, no output); errors are the
 * wrapped error event `{"type":"error","status",…,"error":{…}}`. The behaviour of `/v1/responses`
 * applies (error status, gaps, drops, stream errors). A turn is recorded with method `WEBSOCKET`,
 * its message as received in `rawBody` and the body it ran (chain expanded) in `body`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { answerOpenAIResponses } from './answer-openai-responses.js';
import type { BehaviourRegistry, RecordedRequest } from './fake-behaviour.js';
import type { FakeCall } from './fake-call.js';
import { renderFakeError } from './render-fake-error.js';

export interface FakeWebsocketOptions {
  credential: string | null;
  behaviours: BehaviourRegistry;
  record: (request: RecordedRequest) => void;
  signal: AbortSignal;
}

interface Chain {
  id: string;
  items: unknown[];
}

const PATH = '/v1/responses';
/** Socket-only fields, not part of the body the answer functions read. */
const notForwarded = new Set(['type', 'generate', 'previous_response_id']);
let warmups = 0;

function errorEvent(status: number, error: Record<string, unknown>): string {
  return JSON.stringify({ type: 'error', status, error: { param: null, code: null, ...error } });
}

function refuseUpgrade(socket: Duplex, status: number): void {
  const body = JSON.stringify(renderFakeError('openai', status));
  const head = `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}`;
  socket.end(
    `${head}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The HTTP stream writer the answer functions use, sending each SSE frame's data as a message. */
function socketWriter(socket: WebSocket, seen: (data: string) => void): ServerResponse {
  const writer = {
    writeHead: () => writer,
    flushHeaders: () => undefined,
    write: (frame: string, done?: () => void) => {
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      if (data !== '' && socket.readyState === socket.OPEN) {
        socket.send(data);
        seen(data);
      }
      done?.();
      return true;
    },
    end: () => writer,
    socket: {
      destroy: () => {
        socket.terminate();
      },
    },
  };
  return writer as unknown as ServerResponse;
}

function warmupEvents(model: unknown): { id: string; events: string[] } {
  warmups += 1;
  const id = `resp_fake_warmup_${warmups}`;
  const response = {
    id,
    object: 'response',
    status: 'in_progress',
    model,
    output: [],
    usage: null,
  };
  const completed = { ...response, status: 'completed' };
  return {
    id,
    events: [
      JSON.stringify({ type: 'response.created', sequence_number: 0, response }),
      JSON.stringify({ type: 'response.completed', sequence_number: 1, response: completed }),
    ],
  };
}

function serveConnection(
  socket: WebSocket,
  upgrade: IncomingMessage,
  options: FakeWebsocketOptions,
) {
  let chain: Chain | null = null;
  let busy = false;
  const gone = new AbortController();
  socket.on('close', () => {
    gone.abort();
  });

  /** `message`: the text as received (the record's `rawBody`); `body`: with the chain expanded. */
  async function runTurn(
    message: string,
    body: Record<string, unknown>,
    input: unknown[],
  ): Promise<void> {
    const raw = JSON.stringify(body);
    const request: RecordedRequest = {
      method: 'WEBSOCKET',
      path: PATH,
      query: {},
      headers: upgrade.headers,
      body,
      rawBody: message,
    };
    options.record(request);
    const behaviour = options.behaviours.resolve(PATH);
    if (behaviour.status !== undefined) {
      const rendered = renderFakeError('openai', behaviour.status) as {
        error: Record<string, unknown>;
      };
      socket.send(errorEvent(behaviour.status, rendered.error));
      return;
    }
    const output: unknown[] = [];
    const completed: { id: string | null } = { id: null };
    const seen = (data: string) => {
      const event = JSON.parse(data) as {
        type?: string;
        item?: unknown;
        response?: { id?: string };
      };
      if (event.type === 'response.output_item.done') output.push(event.item);
      if (event.type === 'response.completed') completed.id = event.response?.id ?? null;
    };
    const signal = AbortSignal.any([gone.signal, options.signal]);
    const response = socketWriter(socket, seen);
    const call: FakeCall = {
      request,
      behaviour,
      bodyBytes: Buffer.byteLength(raw),
      write: { response, behaviour, signal },
    };
    await answerOpenAIResponses(call);
    if (completed.id !== null) chain = { id: completed.id, items: [...input, ...output] };
  }

  socket.on('message', (data: Buffer) => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    } catch {
      socket.send(errorEvent(400, { type: 'invalid_request_error', message: 'Invalid JSON.' }));
      return;
    }
    if (message.type !== 'response.create') {
      const text = `Unsupported event type ${JSON.stringify(message.type)}.`;
      socket.send(errorEvent(400, { type: 'invalid_request_error', message: text, param: 'type' }));
      return;
    }
    if (busy) {
      const text = 'A response is already in progress on this connection.';
      socket.send(errorEvent(400, { type: 'invalid_request_error', message: text }));
      return;
    }
    const own = Array.isArray(message.input) ? (message.input as unknown[]) : [];
    const previous = message.previous_response_id;
    let input = own;
    if (typeof previous === 'string') {
      if (chain?.id !== previous) {
        const text = `Previous response with id '${previous}' not found.`;
        const error = { type: 'invalid_request_error', code: 'previous_response_not_found' };
        socket.send(errorEvent(400, { ...error, message: text, param: 'previous_response_id' }));
        return;
      }
      input = [...chain.items, ...own];
    }
    if (message.generate === false) {
      const warmup = warmupEvents(message.model);
      for (const event of warmup.events) socket.send(event);
      chain = { id: warmup.id, items: input };
      return;
    }
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(message)) {
      if (!notForwarded.has(name)) body[name] = value;
    }
    Object.assign(body, { input, stream: true });
    busy = true;
    runTurn(data.toString('utf8'), body, input)
      .catch(() => {
        socket.terminate();
      })
      .finally(() => {
        busy = false;
      });
  });
}

/** Serves the upgrades of `server`; `close()` ends every open connection. */
export function attachResponsesWebsocket(
  server: Server,
  options: FakeWebsocketOptions,
): { close(): void; readonly open: number } {
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://fake.invalid').pathname;
    if (path !== PATH) {
      refuseUpgrade(socket, 404);
      return;
    }
    const bearer = request.headers.authorization?.replace(/^Bearer\s+/i, '');
    if (options.credential !== null && bearer !== options.credential) {
      refuseUpgrade(socket, 401);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (websocket) => {
      serveConnection(websocket, request, options);
    });
  });
  return {
    get open() {
      return sockets.clients.size;
    },
    close() {
      for (const websocket of sockets.clients) websocket.terminate();
      sockets.close();
    },
  };
}
