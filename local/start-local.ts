/**
 * The local control plane, started in-process: `start-local-stack.ts` adds the store, operator and
 * gateway around it for `tollgate local`; tests start it on its own.
 */
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ControlPlaneOptions } from '../control-plane/start-control-plane.js';
import { startControlPlane } from '../control-plane/start-control-plane.js';

export interface LocalOptions extends Omit<ControlPlaneOptions, 'port' | 'host'> {
  host?: string;
  /** The Kubernetes API port; 0 picks a free port. */
  apiPort?: number;
}

export interface Local {
  apiUrl: string;
  /** PEM of the API's self-signed certificate, for clients that do not read the kubeconfig. */
  certificateAuthority: string;
  kubeconfigPath: string;
  token: string;
  /** A plain in-process connection to the API (authenticated and authorized like any other). */
  connect(): Duplex;
  close(): Promise<void>;
}

export async function startLocal(options: LocalOptions): Promise<Local> {
  const host = options.host ?? '127.0.0.1';
  const controlPlane = await startControlPlane({
    ...options,
    dataDirectory: resolve(options.dataDirectory),
    host,
    port: options.apiPort ?? 0,
  });
  return {
    apiUrl: controlPlane.apiUrl,
    certificateAuthority: controlPlane.certificateAuthority,
    kubeconfigPath: controlPlane.kubeconfigPath,
    token: controlPlane.token,
    connect: () => controlPlane.connect(),
    close: () => controlPlane.close(),
  };
}
