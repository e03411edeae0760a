/**
 * Responses over WebSocket (`GET /v1/responses`), on the gateway's registry. Each turn is also an
 * ordinary call in the request metrics (`tollgate_requests_total`, platform OpenAI); these count
 * the connections and the messages around them. Label values come from fixed sets.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** How an upgrade ended: `opened`, or `refused` (a key, IP or other refusal before the 101). */
export type UpgradeOutcome = 'opened' | 'refused';

/**
 * What became of a client message: `turn` (forwarded as a call), `warmup` (`generate: false`,
 * answered by the gateway), `refused` (an error event: bad message, turn in flight, unknown
 * previous response, message limit).
 */
export type MessageOutcome = 'turn' | 'warmup' | 'refused';

/** Why a connection closed: by the `client`, `idle` timeout, `message_limit`, `too_large`, `shutdown`. */
export type CloseReason = 'client' | 'idle' | 'message_limit' | 'too_large' | 'shutdown';

export interface WebsocketMetrics {
  upgrades: Counter<'outcome'>;
  open: Gauge;
  messages: Counter<'outcome'>;
  closes: Counter<'reason'>;
  /** Upstream sockets a connection opened for upstreams with `responsesWebSocket`. */
  upstreamSockets: Counter<'outcome'>;
  /** Turns sent on an upstream socket, `chained` (previous_response_id) or not. */
  upstreamTurns: Counter<'chained'>;
}

/** How opening an upstream socket ended: `opened`, `refused` (not 101: HTTP serves the connection), `failed`. */
export type UpstreamSocketOutcome = 'opened' | 'refused' | 'failed';

export function createWebsocketMetrics(registry: Registry): WebsocketMetrics {
  return {
    upgrades: new Counter({
      name: 'tollgate_websocket_upgrades_total',
      help: 'WebSocket upgrades on GET /v1/responses by outcome (opened, refused).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    open: new Gauge({
      name: 'tollgate_websocket_connections_open',
      help: 'Responses WebSocket connections open now.',
      registers: [registry],
    }),
    messages: new Counter({
      name: 'tollgate_websocket_messages_total',
      help: 'Client messages on Responses WebSockets by outcome (turn, warmup, refused).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    closes: new Counter({
      name: 'tollgate_websocket_closes_total',
      help: 'Responses WebSocket connections closed, by reason (client, idle, message_limit, too_large, shutdown).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    upstreamSockets: new Counter({
      name: 'tollgate_websocket_upstream_sockets_total',
      help: 'Upstream Responses WebSockets opened for client connections, by outcome (opened, refused, failed); refused and failed turns go over HTTP.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    upstreamTurns: new Counter({
      name: 'tollgate_websocket_upstream_turns_total',
      help: 'Turns sent on an upstream Responses WebSocket, by whether they were chained with previous_response_id (true, false).',
      labelNames: ['chained'],
      registers: [registry],
    }),
  };
}
