/**
 * The upstream Responses WebSockets of the gateway's open client Responses WebSockets
 * (docs/wire-formats.md, "Over the upstream's own WebSocket"). Each client connection is
 * registered when it opens, under a random id that never leaves the process: its turns carry that
 * id in the internal header `CONNECTION_HEADER` (set by the gateway on the in-process turn request,
 * over anything a client sent), and the forward stage finds the connection's upstream sockets by
 * it. A connection holds at most one socket per upstream (its turns run one at a time), or the
 * note that the upstream refused the upgrade (its later turns go over HTTP at once); closing the
 * connection closes its sockets.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { WebsocketMetrics } from '../metrics/websocket-metrics.js';

/** The in-process turn request's header naming its client connection. */
export const CONNECTION_HEADER = 'x-tollgate-websocket-connection';

/** What the upstream socket holds for `previous_response_id`: its last completed response. */
export interface UpstreamChain {
  id: string;
  /** That response's input then output items, each as its JSON text. */
  items: string[];
}

export interface UpstreamSocket {
  socket: WebSocket;
  chain: UpstreamChain | null;
  /** A turn is running on it. */
  busy: boolean;
}

/** One client connection's upstream sockets by upstream name; 'refused' when HTTP serves it. */
export interface ClientConnection {
  /** The client's `openai-beta` upgrade header (it names the socket protocol's version). */
  openaiBeta: string | undefined;
  sockets: Map<string, UpstreamSocket | 'refused'>;
  closed: boolean;
}

export class UpstreamWebsockets {
  readonly #connections = new Map<string, ClientConnection>();
  readonly metrics: Pick<WebsocketMetrics, 'upstreamSockets' | 'upstreamTurns'> | null;

  constructor(metrics: Pick<WebsocketMetrics, 'upstreamSockets' | 'upstreamTurns'> | null = null) {
    this.metrics = metrics;
  }

  /** Registers a client connection; its id goes on its turns' requests. */
  open(openaiBeta: string | undefined): string {
    const id = randomUUID();
    this.#connections.set(id, { openaiBeta, sockets: new Map(), closed: false });
    return id;
  }

  /** The connection a turn's header names, if it is open. */
  find(header: string | string[] | undefined): ClientConnection | undefined {
    return typeof header === 'string' ? this.#connections.get(header) : undefined;
  }

  /** Forgets the connection and closes its upstream sockets. */
  close(id: string): void {
    const connection = this.#connections.get(id);
    if (connection === undefined) return;
    this.#connections.delete(id);
    connection.closed = true;
    for (const held of connection.sockets.values()) {
      if (held !== 'refused') held.socket.close(1000);
    }
    connection.sockets.clear();
  }

  get size(): number {
    return this.#connections.size;
  }
}
