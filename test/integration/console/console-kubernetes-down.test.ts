/**
 * The console when the Kubernetes API cannot be reached: sign-in (which reads the local users
 * through Kubernetes) answers 502 KUBERNETES_ERROR in the console's error shape, not a 500 crash.
 */
import { createServer } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type ConsoleApp } from '../../../console/server/app.js';
import { parseConsoleConfigObject } from '../../../console/server/console-config.js';
import type { ApiBody } from './console-harness.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let app: ConsoleApp;

beforeAll(async () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [
      { name: 'gone', server: `https://127.0.0.1:${await closedPort()}`, skipTLSVerify: true },
    ],
    users: [{ name: 'admin', token: 'unused' }],
    contexts: [{ name: 'gone', cluster: 'gone', user: 'admin' }],
    currentContext: 'gone',
  });
  app = build(parseConsoleConfigObject({ logLevel: 'silent' }), { kubeConfig });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('console with the Kubernetes API unreachable', () => {
  it('answers sign-in with 502 KUBERNETES_ERROR', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: 'alice', password: 'alice-password-1' },
    });
    expect(reply.statusCode).toBe(502);
    const body = reply.json<ApiBody>();
    expect(body.error.code).toBe('KUBERNETES_ERROR');
    expect(body.error.message).toContain('unreachable');
  });
});
