/**
 * Pure: the headers of each turn's `POST /v1/responses`, from the upgrade request's. The key, the
 * forwarding headers (`x-forwarded-for`, read with the trusted-proxy rule) and the client's own
 * headers (Codex's `session-id`, `originator`, …) carry over; the upgrade's own headers do not, nor
 * the `openai-beta` value that asked for the socket. A connection whose client names no session
 * gets one for its lifetime, so its calls share one sticky session (upstream-pools.md).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const upgradeOnly = new Set([
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  // Set by the gateway alone (upstream-websockets.ts), never taken from the client.
  'x-tollgate-websocket-connection',
]);

/** The headers read-session-identity.ts takes a session from. */
const sessionHeaders = [
  'x-claude-code-session-id',
  'session-id',
  'session_id',
  'x-session-affinity',
  'x-session-id',
];

export function buildTurnHeaders(upgrade: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(upgrade)) {
    if (!upgradeOnly.has(name)) headers[name] = value;
  }
  const beta = headers['openai-beta'];
  if (typeof beta === 'string') {
    const rest = beta
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('responses_websockets='));
    if (rest.length === 0) delete headers['openai-beta'];
    else headers['openai-beta'] = rest.join(', ');
  }
  if (!sessionHeaders.some((name) => headers[name] !== undefined)) {
    headers['x-session-id'] = `ws_${randomUUID()}`;
  }
  headers['content-type'] = 'application/json';
  headers.accept = 'text/event-stream';
  return headers;
}
