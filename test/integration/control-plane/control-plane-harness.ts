/**
 * Test support: a local control plane in a temporary data folder, and the real kubectl against it.
 * Every kubectl call is bounded in time; `stop()` closes the server and removes the folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { Local, LocalOptions } from '../../../local/start-local.js';
import { startLocal } from '../../../local/start-local.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Plane {
  local: Local;
  dataDirectory: string;
  kubectl(args: readonly string[], input?: string): Promise<KubectlResult>;
  /** kubectl that must succeed; returns stdout. */
  ok(args: readonly string[], input?: string): Promise<string>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Who a `kubectl create rolebinding` binds to which role, in which namespace. */
export type RoleBinding = { name: string; namespace: string } & (
  { clusterRole: string } | { role: string }
) &
  ({ user: string } | { group: string });

/** The arguments of `kubectl create rolebinding` for a binding. */
export function roleBindingArgs(binding: RoleBinding): string[] {
  return [
    'create',
    'rolebinding',
    binding.name,
    ...('role' in binding ? ['--role', binding.role] : ['--clusterrole', binding.clusterRole]),
    ...('user' in binding ? ['--user', binding.user] : ['--group', binding.group]),
    '-n',
    binding.namespace,
  ];
}

export function runKubectl(
  kubeconfig: string,
  call: {
    args: readonly string[];
    input?: string;
    cacheDirectory: string;
    environment?: Record<string, string>;
  },
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', call.cacheDirectory, ...call.args],
      { timeout: 20_000, env: { ...process.env, KUBECONFIG: kubeconfig, ...call.environment } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    if (call.input !== undefined) child.stdin?.end(call.input);
    else child.stdin?.end();
  });
}

export async function startPlane(
  options: Omit<LocalOptions, 'dataDirectory'> = {},
): Promise<Plane> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-cp-'));
  const cacheDirectory = join(dataDirectory, 'kubectl-cache');
  let local = await startLocal({ ...options, dataDirectory });
  const plane: Plane = {
    get local() {
      return local;
    },
    dataDirectory,
    kubectl: (args, input) =>
      runKubectl(local.kubeconfigPath, {
        args,
        cacheDirectory,
        ...(input === undefined ? {} : { input }),
      }),
    ok: async (args, input) => {
      const result = await plane.kubectl(args, input);
      if (result.code !== 0) {
        throw new Error(`kubectl ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
      }
      return result.stdout;
    },
    restart: async () => {
      await local.close();
      local = await startLocal({ ...options, dataDirectory });
    },
    stop: async () => {
      await local.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
  return plane;
}

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTPS request to the local API (trusting its certificate), bounded to 10 s. */
export function apiRequest(
  local: Local,
  call: {
    method: string;
    path: string;
    body?: unknown;
    token?: string | null;
    contentType?: string;
  },
): Promise<ApiResponse> {
  const token = call.token === undefined ? local.token : call.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      new URL(call.path, local.apiUrl),
      { method: call.method, headers, ca: local.certificateAuthority, timeout: 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('request timed out')));
    request.on('error', reject);
    request.end(call.body === undefined ? undefined : JSON.stringify(call.body));
  });
}
