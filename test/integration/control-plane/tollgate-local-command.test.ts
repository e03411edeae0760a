/** `tollgate local` as a process: prints where each part listens, serves them, stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/redis-server.js';
import { runKubectl } from './control-plane-harness.js';

const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-local-'));
afterAll(() => {
  rmSync(dataDirectory, { recursive: true, force: true });
});

function getHealth(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      { host: '127.0.0.1', port, path: '/healthz', timeout: 5_000 },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    call.on('error', reject);
    call.end();
  });
}

describe('tollgate local', () => {
  it('starts, serves /healthz and the API, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const apiPort = await freePort();
    const metricsPort = await freePort();
    const operatorMetricsPort = await freePort();
    const child = spawn(
      process.execPath,
      // --no-demo: the bare stack (the first-run demo world is tested in first-run/).
      ['bin/tollgate.js', 'local', '--no-demo', '--data', dataDirectory, '--port', String(port)],
      {
        env: {
          ...process.env,
          TOLLGATE_API_PORT: String(apiPort),
          TOLLGATE_METRICS_PORT: String(metricsPort),
          TOLLGATE_OPERATOR_METRICS_PORT: String(operatorMetricsPort),
          TOLLGATE_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!output.includes('kubeconfig:') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toContain(`gateway:            http://127.0.0.1:${port}`);
      expect(output).toContain(`gateway metrics:    http://127.0.0.1:${metricsPort}/metrics`);
      expect(output).toContain(
        `operator metrics:   http://127.0.0.1:${operatorMetricsPort}/metrics`,
      );
      expect(output).toContain(`kubernetes API:     https://127.0.0.1:${apiPort}`);
      const kubeconfig = join(dataDirectory, 'kubeconfig');
      expect(output).toContain(`kubeconfig:         ${kubeconfig}`);
      expect(await getHealth(port)).toEqual({ status: 200, body: '{"status":"ok"}' });
      const namespaces = await runKubectl(kubeconfig, {
        args: ['get', 'namespaces', '-o', 'name'],
        cacheDirectory: join(dataDirectory, 'kubectl-cache'),
      });
      expect(namespaces.stdout).toBe('namespace/default\nnamespace/tollgate-system\n');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('shutting down');
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
    }
  });
});
