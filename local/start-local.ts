/**
 * Everything `tollgate local` runs, started in-process: the local control plane and the gateway
 * port (for now only `/healthz`). Tests, the operator and the gateway start it the same way.
 */
import { resolve } from 'node:path';
import type { ControlPlaneOptions } from './control-plane/start-control-plane.js';
import { startControlPlane } from './control-plane/start-control-plane.js';
import { serveHealth } from './serve-health.js';

export interface LocalOptions extends Omit<ControlPlaneOptions, 'port' | 'host'> {
  host?: string;
  /** The Kubernetes API port; 0 picks a free port. */
  apiPort?: number;
  /** The gateway port; absent: no gateway-port server is started. */
  port?: number;
}

export interface Local {
  apiUrl: string;
  /** PEM of the API's self-signed certificate, for clients that do not read the kubeconfig. */
  certificateAuthority: string;
  kubeconfigPath: string;
  token: string;
  /** Present when a gateway port was asked for. */
  gatewayUrl: string | undefined;
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
  let gateway;
  try {
    gateway =
      options.port === undefined ? undefined : await serveHealth({ host, port: options.port });
  } catch (error) {
    await controlPlane.close();
    throw error;
  }
  return {
    apiUrl: controlPlane.apiUrl,
    certificateAuthority: controlPlane.certificateAuthority,
    kubeconfigPath: controlPlane.kubeconfigPath,
    token: controlPlane.token,
    gatewayUrl: gateway?.url,
    close: async () => {
      await gateway?.close();
      await controlPlane.close();
    },
  };
}
