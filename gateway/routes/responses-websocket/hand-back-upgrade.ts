/**
 * With an `upgrade` listener, Node hands every request carrying `Connection: upgrade` to it,
 * whatever protocol it asks for: `curl --http2` on `http://` sends `Upgrade: h2c` with an ordinary
 * POST. Such a request (not a WebSocket upgrade) goes back to the HTTP server as it arrived, less
 * its `Upgrade` and `Connection` headers (the server answers HTTP/1.1, as it did without the
 * listener): its head is written again in front of the bytes already read and the socket is handed
 * to the server as a new connection, which parses it and what follows on it.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** True when the request asks for a WebSocket (the only upgrade the gateway takes). */
export function asksForWebsocket(request: IncomingMessage): boolean {
  return request.headers.upgrade?.toLowerCase() === 'websocket';
}

export function handBackUpgrade(
  server: Server,
  upgrade: { request: IncomingMessage; socket: Duplex; head: Buffer },
): void {
  const { request, socket, head } = upgrade;
  const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const lower = name.toLowerCase();
    if (lower !== 'upgrade' && lower !== 'connection')
      lines.push(`${name}: ${raw[index + 1] ?? ''}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
