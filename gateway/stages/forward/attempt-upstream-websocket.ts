/**
 * One attempt over the upstream's own Responses WebSocket (docs/wire-formats.md, "Over the
 * upstream's own WebSocket"): for a turn of a client Responses WebSocket (its in-process request
 * names the connection, `CONNECTION_HEADER`) to an upstream with `responsesWebSocket`, the turn's
 * `response.create` (chain-upstream-message.ts) goes on the connection's socket to that upstream,
 * opened at its first turn there (open-upstream-websocket.ts) and reused by the next ones. The
 * upstream's event messages become an SSE body (`event: <type>` and `data: <message>` per event),
 * handed back as a 200 `text/event-stream` reply, so the reply, meter, first-output and settle
 * stages read it as they read an HTTP stream. The attempt waits for the first event: an error
 * event first is the attempt's error status (its `status`; `previous_response_not_found` on a
 * chained message resends the turn unchained once); a socket that closes fails the attempt like a
 * connect failure, one silent past the group's first-output timeout (when set) like a first-output
 * timeout, else past the header timeout like a header timeout. After that the body ends at the turn's
 * last event (`response.completed`, `.failed`, `.incomplete`, `error`) and the socket stays for
 * the next turn; a body silent past the idle timeout, a client that leaves, or a reader that drops
 * the body closes the socket. Null: this turn goes over HTTP (no connection, not a streamed
 * `/v1/responses`, an upgrade refused or failed, a body that is not a Responses request).
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { RawData } from 'ws';
import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamSocketOutcome } from '../../metrics/websocket-metrics.js';
import type { AttemptOutcome } from '../../upstreams/classify-attempt.js';
import { outcomeOfStatus, outcomeOfTransportError } from '../../upstreams/classify-attempt.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ProviderCall } from '../../spec/upstream-provider.js';
import type { UpstreamSocket, UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { chainUpstreamMessage, type UpstreamMessage } from './chain-upstream-message.js';
import {
  codedError,
  errorReply,
  eventType,
  parseEvent,
  sseFrame,
  terminalTypes,
  type WebsocketErrorReply,
} from './read-upstream-socket-event.js';
import { openUpstreamWebsocket } from './open-upstream-websocket.js';
import type { UpstreamAbort } from './upstream-abort.js';

export interface WebsocketAttemptInput {
  websockets: UpstreamWebsockets;
  connection: string | string[] | undefined;
  call: ProviderCall;
  upstream: ResolvedUpstream;
  abort: UpstreamAbort;
  timeouts: WebsocketTimeouts;
}

export interface WebsocketTimeouts {
  /** The upgrade's handshake, and the first event when `firstOutputMs` is 0. */
  headersMs: number;
  /** The group's first-output timeout (0 = off): the wait for the first event when set. */
  firstOutputMs: number;
  /** The longest silence between two events after the first. */
  idleMs: number;
}

export type WebsocketAttempt =
  | { kind: 'success'; response: Dispatcher.ResponseData }
  | { kind: 'error-status'; outcome: AttemptOutcome; reply: WebsocketErrorReply }
  | { kind: 'transport-error'; outcome: AttemptOutcome; error: unknown }
  | { kind: 'client-closed'; error: unknown };

/** The connection's socket to the upstream, opened on its first turn there; null for HTTP. */
async function heldSocket(input: WebsocketAttemptInput): Promise<UpstreamSocket | null> {
  const connection = input.websockets.find(input.connection);
  if (connection === undefined || connection.closed) return null;
  const name = input.upstream.name;
  const held = connection.sockets.get(name);
  if (held === 'refused') return null;
  if (held !== undefined) return held.busy ? null : held;
  const opened = await openUpstreamWebsocket({
    upstream: input.upstream,
    headers: input.call.headers,
    openaiBeta: connection.openaiBeta,
    handshakeTimeoutMs: input.timeouts.headersMs,
  });
  input.websockets.metrics?.upstreamSockets.inc({
    outcome: opened.kind satisfies UpstreamSocketOutcome,
  });
  if (opened.kind === 'refused') connection.sockets.set(name, 'refused');
  if (opened.kind !== 'opened') return null;
  // The client connection closed while the socket opened (it is no longer registered).
  if (input.websockets.find(input.connection) !== connection || connection.sockets.has(name)) {
    opened.socket.close(1000);
    return null;
  }
  const socket: UpstreamSocket = { socket: opened.socket, chain: null, busy: false };
  connection.sockets.set(name, socket);
  opened.socket.once('close', () => {
    if (connection.sockets.get(name) === socket) connection.sockets.delete(name);
  });
  return socket;
}

export async function attemptUpstreamWebsocket(
  input: WebsocketAttemptInput,
): Promise<WebsocketAttempt | null> {
  const { call } = input;
  if (!call.stream || call.method !== 'POST' || call.path.split('?')[0] !== '/v1/responses') {
    return null;
  }
  const held = await heldSocket(input);
  if (held === null) return null;
  const message = chainUpstreamMessage(call.body, held.chain);
  if (message === null) return null;
  input.websockets.metrics?.upstreamTurns.inc({ chained: String(message.unchained !== null) });
  return runTurn(held, message, input);
}

function runTurn(
  held: UpstreamSocket,
  message: UpstreamMessage,
  input: WebsocketAttemptInput,
): Promise<WebsocketAttempt> {
  const { socket } = held;
  const { abort, timeouts } = input;
  held.busy = true;
  let started = false;
  let ended = false;
  let unchained = message.unchained;
  const output: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let settle: (result: WebsocketAttempt) => void = () => undefined;
  const body = new Readable({
    read() {
      if (socket.isPaused) socket.resume();
    },
    destroy(error, done) {
      // Dropped before the turn's last event: the socket's turn cannot go on.
      if (!ended) finish(true);
      done(error);
    },
  });
  function finish(closeSocket: boolean): void {
    ended = true;
    held.busy = false;
    clearTimeout(timer);
    socket.off('message', onMessage);
    socket.off('close', onClose);
    abort.off('abort', onAbort);
    if (closeSocket) {
      held.chain = null;
      socket.terminate();
    }
  }
  function fail(result: WebsocketAttempt, error: Error): void {
    if (started) body.destroy(error);
    else {
      finish(true);
      settle(result);
    }
  }
  function arm(): void {
    clearTimeout(timer);
    const firstOutput = !started && timeouts.firstOutputMs > 0;
    const ms = started
      ? timeouts.idleMs
      : firstOutput
        ? timeouts.firstOutputMs
        : timeouts.headersMs;
    if (ms <= 0) return;
    timer = setTimeout(() => {
      if (firstOutput) {
        const error = new GatewayError('TG_UPSTREAM_FIRST_OUTPUT_TIMEOUT');
        fail({ kind: 'transport-error', outcome: 'first_output_timeout', error }, error);
        return;
      }
      const code = started ? 'UND_ERR_BODY_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT';
      const error = codedError('The upstream socket went silent.', code);
      fail({ kind: 'transport-error', outcome: outcomeOfTransportError(error), error }, error);
    }, ms);
  }
  function onMessage(data: RawData): void {
    // Text messages arrive as one Buffer (`ws`'s default binary type), fragments joined.
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : '';
    const type = eventType(text);
    if (!started && type === 'error') {
      const event = parseEvent(text);
      const code = (event.error as { code?: unknown } | undefined)?.code;
      if (code === 'previous_response_not_found' && unchained !== null) {
        socket.send(unchained);
        unchained = null;
        return;
      }
      finish(false);
      const reply = errorReply(event);
      settle({ kind: 'error-status', outcome: outcomeOfStatus(reply.status), reply });
      return;
    }
    if (type === 'response.output_item.done') {
      const item = parseEvent(text).item;
      if (item !== undefined) output.push(JSON.stringify(item));
    }
    const last = terminalTypes.has(type);
    if (last) {
      const id = (parseEvent(text).response as { id?: unknown } | undefined)?.id;
      held.chain =
        type === 'response.completed' && typeof id === 'string'
          ? { id, items: [...message.items, ...output] }
          : null;
    }
    if (!body.push(sseFrame(type, text))) socket.pause();
    if (!started) {
      started = true;
      settle({
        kind: 'success',
        response: {
          statusCode: 200,
          statusText: 'OK',
          headers: { 'content-type': 'text/event-stream' },
          // The reply stage reads the body as a Readable only (data events, pause, destroy).
          body: body as unknown as Dispatcher.ResponseData['body'],
          trailers: {},
          opaque: null,
          context: {},
        },
      });
    }
    if (last) {
      finish(false);
      body.push(null);
    } else arm();
  }
  function onClose(): void {
    const error = codedError('The upstream socket closed mid-turn.', 'UND_ERR_SOCKET');
    fail({ kind: 'transport-error', outcome: 'connect_error', error }, error);
  }
  function onAbort(): void {
    const error = codedError('The client went away.', 'UND_ERR_ABORTED');
    fail({ kind: 'client-closed', error }, error);
  }
  return new Promise<WebsocketAttempt>((resolve) => {
    settle = resolve;
    socket.on('message', onMessage);
    socket.once('close', onClose);
    abort.once('abort', onAbort);
    if (abort.aborted) {
      onAbort();
      return;
    }
    arm();
    socket.send(message.text);
  });
}
