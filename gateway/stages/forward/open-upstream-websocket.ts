/**
 * Opens an upstream's Responses WebSocket for one client connection: `GET <baseURL>/v1/responses`
 * upgraded, with the upstream's credential as `Authorization: Bearer`, the `openai-beta` header
 * the client's own upgrade sent (the socket protocol's version; the current one when it sent
 * none) and the turn's other upstream headers (Codex's `session-id`, `originator`, …). The
 * handshake waits at most the pools' header timeout. An answer other than 101 is a refusal: the
 * connection's turns to that upstream then go over HTTP. Any other failure (connect error,
 * timeout) serves this turn over HTTP and lets a later turn try again.
 */
import { WebSocket } from 'ws';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';

export type OpenedSocket =
  | { kind: 'opened'; socket: WebSocket }
  | { kind: 'refused'; status: number }
  | { kind: 'failed'; error: unknown };

export interface OpenSocketOptions {
  upstream: ResolvedUpstream;
  /** The turn's headers for the upstream (credentials, hops and lengths already left out). */
  headers: Record<string, string>;
  openaiBeta: string | undefined;
  handshakeTimeoutMs: number;
}

/** The socket protocol version sent when the client's upgrade named none. */
const DEFAULT_BETA = 'responses_websockets=2026-02-06';
const notOnUpgrade = new Set(['content-type', 'accept', 'content-length', 'openai-beta']);

function ignoreError(): void {
  // A socket's errors are read through its close (and the open promise); never thrown.
}

export function upstreamSocketUrl(upstream: ResolvedUpstream): string {
  return `${upstream.origin.replace(/^http/, 'ws')}${upstream.basePath}/v1/responses`;
}

export function openUpstreamWebsocket(options: OpenSocketOptions): Promise<OpenedSocket> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers)) {
    if (!notOnUpgrade.has(name)) headers[name] = value;
  }
  headers.authorization = `Bearer ${options.upstream.credential}`;
  headers['openai-beta'] = options.openaiBeta ?? DEFAULT_BETA;
  const socket = new WebSocket(upstreamSocketUrl(options.upstream), {
    headers,
    handshakeTimeout: options.handshakeTimeoutMs,
    perMessageDeflate: false,
  });
  socket.on('error', ignoreError);
  return new Promise<OpenedSocket>((resolve) => {
    socket.once('open', () => {
      resolve({ kind: 'opened', socket });
    });
    socket.once('unexpected-response', (request, response) => {
      response.resume();
      request.destroy();
      resolve({ kind: 'refused', status: response.statusCode ?? 0 });
    });
    socket.once('error', (error) => {
      resolve({ kind: 'failed', error });
    });
  });
}
