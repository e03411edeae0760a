/**
 * The console in local mode: the first start creates `admin` with a random password in
 * `<data>/console-admin-password` (mode 0600) bound to cluster-admin; a second start keeps it.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import { startLocalConsole } from '../../../local/start-local-console.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import { startPlane } from '../control-plane/control-plane-harness.js';
import { signIn } from './console-harness.js';

vi.setConfig({ testTimeout: 60_000 });

let plane: Plane;
let ledger: LedgerDatabase;

beforeAll(async () => {
  plane = await startPlane();
  ledger = await openLedgerDatabase({ dataDir: plane.dataDirectory });
});

afterAll(async () => {
  await ledger.close();
  await plane.stop();
});

/** The console as local mode starts it, on the plane's data folder and a free port. */
function localConsoleOptions() {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(plane.local.kubeconfigPath);
  return {
    dataDirectory: plane.dataDirectory,
    host: '127.0.0.1',
    port: 0,
    kubeConfig,
    ledger,
    operatorNamespace: 'tollgate-system',
    timeZone: 'UTC',
    logLevel: 'silent' as const,
  };
}

describe('local console', () => {
  it('creates admin once, with a 0600 password file, and signs it in as cluster-admin', async () => {
    const options = localConsoleOptions();
    const first = await startLocalConsole(options);
    const file = join(plane.dataDirectory, 'console-admin-password');
    expect(first.adminPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.adminPassword);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const signed = await signIn(first.app, { username: 'admin', password: first.adminPassword! });
    const created = await first.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/accounts/default',
      headers: { cookie: signed.cookie, 'x-csrf-token': signed.csrf },
      payload: { spec: { creditUSD: '5' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    await first.app.close();
    const second = await startLocalConsole(options);
    expect(second.adminPassword).toBeUndefined();
    await signIn(second.app, { username: 'admin', password: first.adminPassword! });
    await second.app.close();
  });

  it('accepts changes from its own address only, whatever Host a caller sends', async () => {
    const started = await startLocalConsole(localConsoleOptions());
    const password = readFileSync(join(plane.dataDirectory, 'console-admin-password'), 'utf8');
    const signInFrom = (headers: Record<string, string>) =>
      started.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        headers,
        payload: { username: 'admin', password: password.trim() },
      });
    const port = new URL(started.url).port;
    for (const origin of [started.url, `http://localhost:${port}`]) {
      expect((await signInFrom({ origin })).statusCode, origin).toBe(200);
    }
    const forged = await signInFrom({ host: 'evil.example', origin: 'http://evil.example' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json<{ error: { code: string } }>().error.code).toBe('CSRF_REJECTED');
    await started.app.close();
  });
});
