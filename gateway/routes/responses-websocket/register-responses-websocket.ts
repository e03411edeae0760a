/**
 * Responses over WebSocket on `GET /v1/responses` (docs/wire-formats.md). The upgrade is checked
 * by the gateway's own request path before it completes: the upgrade request is replayed in
 * process (`app.inject`) to this route, whose profile runs the authorize stage (key state,
 * platform) and the IP rule of the admit stage (with the trusted-proxy rule) like any route; a
 * refusal is written to the socket as the HTTP answer, in the OpenAI shape, and no 101 is sent.
 * Only the in-process replay carries the per-process marker that lets the route answer 204 (go
 * on); a plain GET that reaches it is told to upgrade (426). After the 101, each message is served
 * by serve-websocket-connection.ts.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import { GatewayError } from '../../errors/gateway-error.js';
import type { WebsocketMetrics } from '../../metrics/websocket-metrics.js';
import type { UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { ROUTE_PROFILES } from '../../stages/request/route-profile.js';
import '../../stages/request/route-config.js';
import { buildTurnHeaders } from './build-turn-headers.js';
import { asksForWebsocket, handBackUpgrade } from './hand-back-upgrade.js';
import {
  serveWebsocketConnection,
  type ConnectionLimits,
  type ServedConnection,
} from './serve-websocket-connection.js';

export interface ResponsesWebsocketOptions {
  limits: ConnectionLimits & { maxMessageBytes: number };
  metrics: WebsocketMetrics;
  clock: () => number;
  websockets: UpstreamWebsockets;
}

const PATH = '/v1/responses';
const MARKER_HEADER = 'x-tollgate-websocket-check';

/** The refusal as the upgrade's HTTP answer; the socket is closed after it. */
function writeRefusal(
  socket: Duplex,
  answer: { status: number; headers: Record<string, unknown>; body: string },
): void {
  const lines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`];
  for (const name of ['content-type', 'retry-after', 'x-tollgate-request-id', 'allow']) {
    const value = answer.headers[name];
    if (typeof value === 'string') lines.push(`${name}: ${value}`);
  }
  lines.push(`content-length: ${Buffer.byteLength(answer.body)}`, 'connection: close', '', '');
  socket.end(lines.join('\r\n') + answer.body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export function registerResponsesWebsocket(
  app: FastifyInstance,
  options: ResponsesWebsocketOptions,
): void {
  const marker = randomUUID();
  app.get(PATH, { config: { profile: ROUTE_PROFILES.openaiWebsocket } }, (request, reply) => {
    if (request.headers[MARKER_HEADER] !== marker) {
      return Promise.reject(new GatewayError('TG_WEBSOCKET_REQUIRED'));
    }
    return reply.code(204).send();
  });

  const server = new WebSocketServer({
    noServer: true,
    maxPayload: options.limits.maxMessageBytes,
  });
  const open = new Set<ServedConnection>();
  const context = {
    app,
    limits: options.limits,
    metrics: options.metrics,
    log: app.log,
    clock: options.clock,
    websockets: options.websockets,
  };

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const remoteAddress = request.socket.remoteAddress ?? '';
    const check = await app.inject({
      method: 'GET',
      url: request.url ?? PATH,
      headers: { ...request.headers, [MARKER_HEADER]: marker },
      remoteAddress,
    });
    if (check.statusCode !== 204) {
      options.metrics.upgrades.inc({ outcome: 'refused' });
      writeRefusal(socket, { status: check.statusCode, headers: check.headers, body: check.body });
      return;
    }
    server.handleUpgrade(request, socket, head, (websocket) => {
      options.metrics.upgrades.inc({ outcome: 'opened' });
      const served = serveWebsocketConnection(context, websocket, {
        headers: buildTurnHeaders(request.headers),
        remoteAddress,
        openaiBeta: headerValue(request.headers['openai-beta']),
      });
      open.add(served);
      void served.closed.then(() => open.delete(served));
    });
  }

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!asksForWebsocket(request)) {
      handBackUpgrade(app.server, { request, socket, head });
      return;
    }
    socket.on('error', () => socket.destroy());
    upgrade(request, socket, head).catch((error: unknown) => {
      app.log.error({ err: error }, 'websocket upgrade failed');
      socket.destroy();
    });
  });
  // Closed before the gateway's own onClose hooks wait for the turns' settlements.
  app.addHook('preClose', (done) => {
    for (const served of open) served.shutdown();
    server.close(() => {
      done();
    });
  });
}
