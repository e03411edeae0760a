/**
 * `tollgate gateway --workers 2` as a real process: two worker processes share the port, the
 * primary's metrics port shows the sum of both workers' metrics, and on SIGTERM every worker drains
 * and exits, then the primary exits 0 with no worker left behind.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../support/redis-server.js';
import { newSecrets } from '../../support/gateway-fixture.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-gateway-workers-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}

async function healthy(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await request(url);
      await response.body.text();
      if (response.statusCode === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

it('runs two workers on one port and stops them all on SIGTERM', async () => {
  const secrets = newSecrets();
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey);
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawn(
    process.execPath,
    [
      'bin/tollgate.js',
      'gateway',
      '--workers',
      '2',
      '--port',
      String(port),
      '--host=127.0.0.1',
      `--metrics-port=${metricsPort}`,
      '--metrics-host=127.0.0.1',
      `--pepper-file=${join(dataDir, 'pepper')}`,
      `--credential-key-file=${join(dataDir, 'credential-key')}`,
      '--log-level=silent',
    ],
    { cwd: process.cwd(), stdio: 'ignore' },
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  try {
    expect(await healthy(`http://127.0.0.1:${port}/healthz`)).toBe(true);
    const workers = childrenOf(child.pid!).filter((pid) => {
      const command = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
      return command.includes('gateway --workers 2');
    });
    expect(workers).toHaveLength(2);
    // Twenty calls on twenty connections: node:cluster deals connections to the workers in turn.
    // No operator ever programmed the workers' stores: an unknown key is "not back yet" (503
    // TG_POLICY_RESTORING), not 401.
    for (let index = 0; index < 20; index++) {
      const response = await request(`http://127.0.0.1:${port}/v1/messages`, {
        method: 'POST',
        reset: true,
        headers: { 'content-type': 'application/json', 'x-api-key': `sk-unknown-${index}` },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [] }),
      });
      expect(response.statusCode).toBe(503);
      expect(await response.body.text()).toContain('TG_POLICY_RESTORING');
    }
    // Every scrape sees both workers' calls, whichever connection it comes on.
    for (let scrape = 0; scrape < 4; scrape++) {
      const metrics = await request(`http://127.0.0.1:${metricsPort}/metrics`, { reset: true });
      const text = await metrics.body.text();
      expect(text).toContain('tollgate_requests_total{platform="Anthropic",status_class="5xx"} 20');
      expect(text).toContain('tollgate_requests_in_flight{platform="Anthropic"} 0');
      expect(text).toMatch(/tollgate_nodejs_eventloop_lag_p99_seconds [0-9.e-]+/);
    }
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    for (const pid of workers) {
      expect(() => process.kill(pid, 0)).toThrow();
    }
  } finally {
    clearTimeout(killer);
    for (const pid of childrenOf(child.pid!)) process.kill(pid, 'SIGKILL');
  }
});
