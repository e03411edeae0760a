/**
 * `GET /metrics` on a port of its own, apart from any public port (an Ingress in front of the
 * console never exposes it), and with `healthz`, liveness at `GET /healthz` (the recorder's). Used
 * by the recorder and the console.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsEndpoint {
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(
  registry: Registry,
  options: { port: number; host: string; healthz: boolean },
): Promise<MetricsEndpoint> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': registry.contentType }).end(text);
        },
        () => {
          response.writeHead(500).end();
        },
      );
      return;
    }
    if (options.healthz && request.method === 'GET' && path === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
