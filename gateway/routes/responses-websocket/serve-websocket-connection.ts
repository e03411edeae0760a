/**
 * One Responses WebSocket connection after its upgrade: each `response.create` is one turn
 * (run-websocket-turn.ts), one at a time, as the API runs them; the connection's last completed
 * response is kept for `previous_response_id`. Limits (gateway settings): messages per connection
 * (then an error event and close 1008), idle time with no turn running (close 1000), message size
 * (enforced by `ws`, close 1009). Every failure of a turn is an error event on the socket; nothing
 * here throws into the process.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { GatewayError } from '../../errors/gateway-error.js';
import { toGatewayError } from '../../errors/to-gateway-error.js';
import type { CloseReason, WebsocketMetrics } from '../../metrics/websocket-metrics.js';
import { CONNECTION_HEADER, type UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { planWebsocketMessage, type ConnectionHistory } from './plan-websocket-message.js';
import { renderGatewayErrorEvent, renderWarmupEvents } from './render-websocket-events.js';
import { runWebsocketTurn } from './run-websocket-turn.js';

export interface ConnectionLimits {
  maxMessages: number;
  idleTimeoutMs: number;
}

export interface ConnectionContext {
  app: FastifyInstance;
  limits: ConnectionLimits;
  metrics: WebsocketMetrics;
  log: FastifyBaseLogger;
  clock: () => number;
  /** The connections' upstream sockets (for upstreams with `responsesWebSocket`). */
  websockets: UpstreamWebsockets;
}

export interface UpgradeRequest {
  /** The turns' headers (turn-headers.ts). */
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  /** The client's `openai-beta` upgrade header, for the upstream socket's own upgrade. */
  openaiBeta: string | undefined;
}

/** What the gateway keeps of an open connection: how to end it when the gateway stops. */
export interface ServedConnection {
  shutdown(): void;
  closed: Promise<void>;
}

/** Bytes queued on the socket past which a turn waits for the client to read. */
const SEND_HIGH_WATER_BYTES = 1024 * 1024;

export function serveWebsocketConnection(
  context: ConnectionContext,
  socket: WebSocket,
  upgrade: UpgradeRequest,
): ServedConnection {
  const { limits, metrics } = context;
  let messages = 0;
  let turn: ServerResponse | null = null;
  let busy = false;
  let closed = false;
  let closeReason: CloseReason | null = null;
  let history: ConnectionHistory | null = null;
  let idle: NodeJS.Timeout | undefined;
  const connection = context.websockets.open(upgrade.openaiBeta);
  const headers = { ...upgrade.headers, [CONNECTION_HEADER]: connection };

  /**
   * Queues a message; past the high-water mark, a promise of its flush to the socket, which the
   * turn waits for before it reads on (so a slow client holds the upstream back instead of the
   * gateway buffering the stream).
   */
  const send = (text: string): Promise<void> | null => {
    if (closed) return null;
    if (socket.bufferedAmount < SEND_HIGH_WATER_BYTES) {
      socket.send(text);
      return null;
    }
    return new Promise((flushed) => {
      socket.send(text, () => {
        flushed();
      });
    });
  };
  const close = (code: number, reason: string, counted: CloseReason): void => {
    closeReason ??= counted;
    socket.close(code, reason);
  };
  const armIdle = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      close(1000, 'idle timeout', 'idle');
    }, limits.idleTimeoutMs);
  };
  const refuse = (error: GatewayError): void => {
    metrics.messages.inc({ outcome: 'refused' });
    void send(renderGatewayErrorEvent(error));
  };

  async function runTurn(body: string, input: unknown[]): Promise<void> {
    busy = true;
    clearTimeout(idle);
    metrics.messages.inc({ outcome: 'turn' });
    try {
      const result = await runWebsocketTurn(context.app, {
        headers,
        remoteAddress: upgrade.remoteAddress,
        body,
        send,
        onResponse: (response) => {
          turn = response;
          if (closed) response.destroy();
        },
      });
      if (result.completed && result.responseId !== null) {
        history = { responseId: result.responseId, items: [...input, ...result.output] };
      }
    } catch (error) {
      if (!closed) {
        context.log.warn({ err: error }, 'websocket turn failed');
        void send(renderGatewayErrorEvent(toGatewayError(error)));
      }
    } finally {
      busy = false;
      turn = null;
      if (!closed) armIdle();
    }
  }

  function onMessage(data: Buffer, isBinary: boolean): void {
    messages += 1;
    if (messages > limits.maxMessages) {
      refuse(
        new GatewayError('TG_WEBSOCKET_MESSAGE_LIMIT', {
          detail: `(limit: ${limits.maxMessages})`,
        }),
      );
      close(1008, 'message limit', 'message_limit');
      return;
    }
    if (!busy) armIdle();
    if (isBinary) {
      refuse(
        new GatewayError('TG_BAD_REQUEST', { detail: 'Send response.create as a text message.' }),
      );
      return;
    }
    if (busy) {
      refuse(new GatewayError('TG_WEBSOCKET_TURN_IN_FLIGHT'));
      return;
    }
    const plan = planWebsocketMessage(data.toString('utf8'), history);
    if (plan.kind === 'refused') {
      refuse(plan.error);
      return;
    }
    if (plan.kind === 'warmup') {
      metrics.messages.inc({ outcome: 'warmup' });
      const warmup = renderWarmupEvents(plan.model, context.clock());
      for (const event of warmup.events) void send(event);
      history = { responseId: warmup.id, items: plan.input };
      return;
    }
    void runTurn(plan.body, plan.input);
  }

  metrics.open.inc();
  armIdle();
  socket.on('message', onMessage);
  socket.on('error', (error: Error & { code?: string }) => {
    // `ws` closes with 1009 itself; the peer's close frame is no longer read after it.
    if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') closeReason ??= 'too_large';
    context.log.debug({ err: error }, 'websocket error');
  });
  const ended = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closed = true;
      clearTimeout(idle);
      turn?.destroy();
      context.websockets.close(connection);
      metrics.open.dec();
      metrics.closes.inc({ reason: closeReason ?? 'client' });
      resolve();
    });
  });
  return {
    shutdown: () => {
      close(1001, 'gateway shutting down', 'shutdown');
    },
    closed: ended,
  };
}
