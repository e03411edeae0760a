/**
 * Test support: an HTTPS proxy in front of the local control plane (serving the control plane's own
 * certificate, so clients verify it as usual) that records every request a component makes
 * (method, path, query, impersonation headers, answer status), and a kubeconfig that sends one
 * identity's token through it. Watches stream through; `close()` ends them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Local } from '../../../local/start-local.js';

export interface RecordedRequest {
  method: string;
  url: string;
  status: number;
  impersonateUser: string | undefined;
  impersonateGroups: string[];
}

export interface ApiRecorder {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function headerList(request: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]?.toLowerCase() === name) {
      values.push(request.rawHeaders[index + 1] ?? '');
    }
  }
  return values;
}

export async function startApiRecorder(local: Local, dataDirectory: string): Promise<ApiRecorder> {
  const requests: RecordedRequest[] = [];
  const target = new URL(local.apiUrl);
  const tls = {
    cert: readFileSync(join(dataDirectory, 'tls.crt')),
    key: readFileSync(join(dataDirectory, 'tls.key')),
  };
  const server = createServer(tls, (incoming, outgoing) => {
    const forwarded = httpsRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
        ca: local.certificateAuthority,
      },
      (answer) => {
        requests.push({
          method: incoming.method ?? 'GET',
          url: incoming.url ?? '/',
          status: answer.statusCode ?? 0,
          impersonateUser: headerList(incoming, 'impersonate-user')[0],
          impersonateGroups: headerList(incoming, 'impersonate-group'),
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        outgoing.on('close', () => answer.destroy());
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A kubeconfig file for `token` through the recorder; returns its path. */
export function writeRecordedKubeconfig(options: {
  folder: string;
  name: string;
  server: string;
  certificateAuthority: string;
  token: string;
}): string {
  const path = join(options.folder, `${options.name}.kubeconfig`);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'recorded',
        cluster: {
          server: options.server,
          'certificate-authority-data': Buffer.from(options.certificateAuthority).toString(
            'base64',
          ),
        },
      },
    ],
    users: [{ name: options.name, user: { token: options.token } }],
    contexts: [
      {
        name: options.name,
        context: { cluster: 'recorded', user: options.name, namespace: 'tollgate-system' },
      },
    ],
    'current-context': options.name,
  };
  writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}
