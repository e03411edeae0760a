/**
 * Child process, scenario B: the barest Node proxy, a node:http server that hands every request to
 * one undici pool with `stream` and pipes the answer back. The best any Node proxy can do.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { listenAndAnnounce } from './announce-listening.js';

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
const endToEnd = (headers: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter(
      (entry): entry is [string, string] => !HOP.has(entry[0]) && typeof entry[1] === 'string',
    ),
  );

const upstream = new Pool(process.argv[2] ?? '', { pipelining: 1, keepAliveTimeout: 10_000 });
const server = createServer((request, response) => {
  upstream
    .stream(
      {
        method: 'POST',
        path: request.url ?? '/',
        headers: endToEnd(request.headers),
        body: request,
      },
      ({ statusCode, headers }) => {
        response.writeHead(statusCode, endToEnd(headers));
        return response;
      },
    )
    .catch(() => response.destroy());
});
server.keepAliveTimeout = 30_000;
listenAndAnnounce(server);
const stop = (): void => {
  server.closeAllConnections();
  server.close();
  void upstream.destroy().finally(() => process.exit(0));
};
process.on('message', stop);
process.on('disconnect', stop);
process.on('SIGTERM', stop);
