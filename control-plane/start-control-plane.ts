/**
 * Starts the local control plane: loads the persisted objects, makes sure the namespaces `default`
 * and `tollgate-system` and the bootstrap roles and bindings exist, serves the Kubernetes API subset and writes `<data>/kubeconfig`.
 */
import { mkdirSync } from 'node:fs';
import { createServer as createPlainServer, type ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { Authenticator } from './authenticate-request.js';
import { storeRbacObjects } from './authorize-request.js';
import { bootstrapRbac } from './bootstrap-rbac.js';
import { connectInProcess } from './connect-in-process.js';
import { loadOrCreateCertificate } from './create-certificate.js';
import type { AddressInfo } from 'node:net';
import { handleApiRequest } from './handle-api-request.js';
import { ObjectStore } from './object-store.js';
import { ObjectFiles } from './persist-objects.js';
import { loadResourceKinds } from './resource-kinds.js';
import { loadOrCreateToken, writeKubeconfig } from './write-kubeconfig.js';

export interface ControlPlaneOptions {
  dataDirectory: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** How many change events stay available to watches that resume (older: 410 Gone). */
  watchWindow?: number;
  /** The longest a watch stays open before the server ends it (clients re-watch). */
  watchTimeoutMs?: number;
  bookmarkIntervalMs?: number;
}

export interface ControlPlane {
  apiUrl: string;
  /** PEM of the self-signed serving certificate (the kubeconfig's CA). */
  certificateAuthority: string;
  kubeconfigPath: string;
  token: string;
  /**
   * A new plain connection to the API from inside this process (no TLS, no socket): requests on it
   * are authenticated and authorized like any other (see connect-in-process.ts).
   */
  connect(): Duplex;
  close(): Promise<void>;
}

export const SYSTEM_NAMESPACES = ['default', 'tollgate-system'];

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  mkdirSync(options.dataDirectory, { recursive: true, mode: 0o700 });
  const kinds = loadResourceKinds();
  const store = new ObjectStore({
    kinds,
    files: new ObjectFiles(options.dataDirectory),
    watchWindow: options.watchWindow ?? 1000,
  });
  const namespaceKind = kinds.find((kind) => kind.kind === 'Namespace');
  for (const name of SYSTEM_NAMESPACES) {
    if (namespaceKind !== undefined) {
      store.ensure(namespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
  }
  bootstrapRbac(store, kinds);
  // The journal of the last run (and what start-up just wrote) goes into the object files.
  await store.compact();
  const token = loadOrCreateToken(options.dataDirectory);
  const watches = new Set<() => void>();
  const context = {
    kinds,
    store,
    authenticator: new Authenticator({ adminToken: token, dataDirectory: options.dataDirectory }),
    rbac: storeRbacObjects(store, kinds),
    serverAddress: '',
    watchTimeoutMs: options.watchTimeoutMs ?? 30 * 60_000,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    trackWatch: (stop: () => void, response: ServerResponse) => {
      watches.add(stop);
      response.on('close', () => watches.delete(stop));
    },
  };
  const tls = loadOrCreateCertificate(options.dataDirectory, options.host);
  const server = createServer({ cert: tls.certificate, key: tls.key }, (request, response) => {
    void handleApiRequest(context, request, response);
  });
  // The same handler for in-process connections; this server never listens.
  const inProcess = createPlainServer((request, response) => {
    void handleApiRequest(context, request, response);
  });
  const inProcessConnections = new Set<Duplex>();
  let closed = false;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  context.serverAddress = `${options.host}:${address.port}`;
  // A wildcard listen address is reached on loopback, which the certificate covers.
  const clientHost = ['0.0.0.0', '::'].includes(options.host) ? '127.0.0.1' : options.host;
  const apiUrl = `https://${clientHost.includes(':') ? `[${clientHost}]` : clientHost}:${address.port}`;
  const kubeconfigPath = writeKubeconfig(options.dataDirectory, {
    server: apiUrl,
    token,
    certificateAuthority: tls.certificate,
  });
  return {
    apiUrl,
    certificateAuthority: tls.certificate,
    kubeconfigPath,
    token,
    connect: () => {
      if (closed) throw new Error('the control plane is closed');
      const connection = connectInProcess(inProcess);
      inProcessConnections.add(connection);
      connection.once('close', () => inProcessConnections.delete(connection));
      return connection;
    },
    close: async () => {
      closed = true;
      for (const stop of watches) stop();
      watches.clear();
      for (const connection of inProcessConnections) connection.destroy();
      inProcessConnections.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      await store.close();
    },
  };
}
