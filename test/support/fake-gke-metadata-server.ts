/**
 * A fake GKE metadata server (real HTTP on 127.0.0.1), the Workload Identity side: `GET
 * /computeMetadata/v1/instance/service-accounts/default/token` answers a token from the shared
 * `FakeTokenIssuer` when the request carries `Metadata-Flavor: Google` (403 otherwise, as the real
 * one answers); its `host` is what `GCE_METADATA_HOST` names.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeTokenIssuer } from './fake-google-token-endpoint.js';

const TOKEN_PATH = '/computeMetadata/v1/instance/service-accounts/default/token';

export interface FakeMetadataServer {
  /** host:port, as `GCE_METADATA_HOST` carries it. */
  host: string;
  /** Token requests answered. */
  readonly tokenCalls: number;
  close(): Promise<void>;
}

export async function startFakeMetadataServer(
  issuer: FakeTokenIssuer,
): Promise<FakeMetadataServer> {
  let tokenCalls = 0;
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== TOKEN_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (request.headers['metadata-flavor'] !== 'Google') {
      response
        .writeHead(403, { 'content-type': 'text/plain' })
        .end('Missing Metadata-Flavor:Google header.');
      return;
    }
    tokenCalls += 1;
    response.writeHead(200, { 'content-type': 'application/json', 'metadata-flavor': 'Google' });
    response.end(JSON.stringify(issuer.issue()));
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  return {
    host: `127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    get tokenCalls() {
      return tokenCalls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
