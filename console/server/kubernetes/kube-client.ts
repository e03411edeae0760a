/**
 * The console's Kubernetes API client: @kubernetes/client-node reads the kubeconfig (or the
 * in-cluster ServiceAccount) and applies its TLS and credentials; requests go out over node:https so
 * that each group of the signed-in user is its own `Impersonate-Group` header line (a fetch-style
 * client would join them with commas into one group). The identity always comes from the server-side
 * session, never from the browser.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { keepKubeConnections } from '../../../network/keep-kube-connections.js';

export interface Identity {
  username: string;
  groups: readonly string[];
}

export interface KubeCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  /** Impersonate this user; absent: the console's own identity. */
  as?: Identity;
}

/** One call as the metrics see it: its method, path, status (0: no answer) and duration. */
export interface KubeCallObservation {
  method: KubeCall['method'];
  path: string;
  status: number;
  seconds: number;
}

/** A Kubernetes `Status` refusal (or a transport failure, status 0). */
export class KubeApiError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const message = typeof body.message === 'string' ? body.message : `status ${status}`;
    super(message);
    this.name = 'KubeApiError';
    this.status = status;
    this.body = body;
  }
}

export function loadKubeConfig(kubeconfig: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (kubeconfig !== undefined) kubeConfig.loadFromFile(kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST === undefined) {
    throw new Error('the console needs a cluster: pass --kubeconfig, or run it in a pod');
  } else kubeConfig.loadFromCluster();
  // One kept connection to the API server instead of a TLS handshake per call.
  return keepKubeConnections(kubeConfig);
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 32 * 1024 * 1024) response.destroy(new Error('response too large'));
      else chunks.push(chunk);
    });
    response.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    response.on('error', reject);
  });
}

function parseJson(text: string): Record<string, unknown> {
  if (text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return { message: text.slice(0, 500) };
  }
}

export class KubeClient {
  private readonly server: URL;

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly observe?: (call: KubeCallObservation) => void,
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig names no current cluster');
    this.server = new URL(cluster.server);
  }

  async call<T = Record<string, unknown>>(call: KubeCall): Promise<T> {
    const url = new URL(this.server.href.replace(/\/$/, '') + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const options: RequestOptions = { method: call.method, headers: {}, timeout: 15_000 };
    await this.kubeConfig.applyToHTTPSOptions(options);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (/^impersonate-/i.test(name) || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.map(String) : String(value);
    }
    headers.accept = 'application/json';
    if (call.as !== undefined) {
      headers['Impersonate-User'] = call.as.username;
      if (call.as.groups.length > 0) headers['Impersonate-Group'] = [...call.as.groups];
    }
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (payload !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const started = performance.now();
    let answered = 0;
    const { status, text } = await new Promise<{ status: number; text: string }>(
      (resolve, reject) => {
        const request = send(url, { ...options, headers }, (response) => {
          readBody(response).then(
            (body) => {
              answered = response.statusCode ?? 0;
              resolve({ status: answered, text: body });
            },
            (error: unknown) => {
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        });
        request.on('timeout', () => request.destroy(new Error('Kubernetes API timed out')));
        request.on('error', (error) => {
          reject(new KubeApiError(0, { message: `Kubernetes API unreachable: ${error.message}` }));
        });
        request.end(payload);
      },
    ).finally(() => {
      this.observe?.({
        method: call.method,
        path: call.path,
        status: answered,
        seconds: (performance.now() - started) / 1000,
      });
    });
    const body = parseJson(text);
    if (status < 200 || status >= 300) throw new KubeApiError(status, body);
    return body as T;
  }
}
