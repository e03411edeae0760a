/**
 * The console's Prometheus metrics. `tollgate console --metrics-port` as a real process against the
 * local control plane (RBAC on): after real sign-ins (one right, wrong ones into the rate limit,
 * OIDC ones that fail) and API calls (allowed, refused by RBAC, a missing key, an unknown route,
 * a web page), its metrics port serves the process metrics and the request, sign-in and
 * Kubernetes call counters with exactly those counts, labelled by route pattern and never by a
 * user, a namespace or a path. In process: a Kubernetes API that cannot be reached is counted as
 * `unreachable`, and the sign-in it broke as `error`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { KubeConfig } from '@kubernetes/client-node';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../../console/server/app.js';
import { parseConsoleConfigObject } from '../../../console/server/console-config.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { freePort } from '../../support/redis-server.js';
import { prepareTeamK, type ApiBody } from './console-harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const user = { username: 'kim', password: 'kim-password-123', groups: ['team-k-managers'] };

let plane: Plane;
let child: ChildProcess | undefined;

beforeAll(async () => {
  plane = await startPlane();
  await prepareTeamK(plane, user);
});

afterAll(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  await plane.stop();
});

/** `name{labels}` -> value, from the Prometheus text format. */
function parseSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const split = line.lastIndexOf(' ');
    samples.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return samples;
}

async function waitForLine(output: () => string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  let match = pattern.exec(output());
  while (match === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    match = pattern.exec(output());
  }
  if (match?.[1] === undefined) throw new Error(`no line ${String(pattern)} in:\n${output()}`);
  return match[1];
}

async function status(
  url: string,
  options: { method?: 'GET' | 'POST'; cookie?: string; body?: unknown } = {},
): Promise<number> {
  const response = await request(url, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  await response.body.arrayBuffer();
  return response.statusCode;
}

describe('tollgate console --metrics-port (process)', () => {
  it('serves the process, request, sign-in and Kubernetes metrics of real calls', async () => {
    const metricsPort = await freePort();
    const closedIssuerPort = await freePort();
    const started = spawn(
      process.execPath,
      [
        'bin/tollgate.js',
        'console',
        '--kubeconfig',
        plane.local.kubeconfigPath,
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--metrics-host',
        '127.0.0.1',
        '--metrics-port',
        String(metricsPort),
        // An issuer nobody answers at: starting an OIDC sign-in fails, the callback has nothing
        // pending; both are OIDC sign-in failures.
        '--oidc-issuer',
        `https://127.0.0.1:${closedIssuerPort}`,
        '--oidc-client-id',
        'tollgate-console',
        '--oidc-redirect-url',
        'http://127.0.0.1:1/api/v1/auth/oidc/callback',
      ],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
      },
    );
    child = started;
    const exited: Promise<unknown[]> = once(started, 'exit');
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const url = await waitForLine(() => output, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
    const metricsUrl = await waitForLine(
      () => output,
      /metrics listening at (http:\/\/127\.0\.0\.1:\d+\/metrics)/,
    );
    expect(metricsUrl).toBe(`http://127.0.0.1:${metricsPort}/metrics`);

    const signIn = await request(`${url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(signIn.statusCode).toBe(200);
    await signIn.body.json();
    const setCookie = [signIn.headers['set-cookie'] ?? []].flat().join('\n');
    const cookie = /tollgate_console_session=[^;]+/.exec(setCookie)?.[0] ?? '';
    const statuses = {
      keys: await status(`${url}/api/v1/accounts/team-k/keys`, { cookie }),
      foreign: await status(`${url}/api/v1/accounts/team-other/keys`, { cookie }),
      missing: await status(`${url}/api/v1/accounts/team-k/keys/no-such-key`, { cookie }),
      unmatched: await status(`${url}/api/v1/no/such/route`, { cookie }),
      web: await status(`${url}/keys/team-k`, { cookie }),
      mainPortMetrics: 0,
      wrong: [] as number[],
      oidcCallback: await status(`${url}/api/v1/auth/oidc/callback?state=s&code=c`),
      oidcLogin: await status(`${url}/api/v1/auth/oidc/login`),
    };
    // One (user, address) pair has 3 free failures, then waits 1 s, 2 s, 4 s...: 429 before the
    // password is checked (a slow password check may let one more through).
    for (let attempt = 0; attempt < 7; attempt += 1) {
      statuses.wrong.push(
        await status(`${url}/api/v1/session`, {
          method: 'POST',
          body: { username: 'mallory', password: 'not-the-password' },
        }),
      );
    }
    const mainPort = await request(`${url}/metrics`);
    const mainPortText = await mainPort.body.text();
    expect(statuses).toMatchObject({
      keys: 200,
      foreign: 403,
      missing: 404,
      unmatched: 404,
      web: 200,
      oidcCallback: 401,
    });
    expect(statuses.wrong.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.wrong.slice(3)).toContain(429);
    const refusedWrong = statuses.wrong.filter((code) => code === 401).length;
    expect(refusedWrong + statuses.wrong.filter((code) => code === 429).length).toBe(7);
    expect(statuses.oidcLogin).not.toBe(302);
    // The public port does not serve the metrics.
    expect(mainPortText).not.toContain('tollgate_console_');

    const scraped = await request(metricsUrl);
    expect(scraped.statusCode).toBe(200);
    expect(String(scraped.headers['content-type'])).toContain('text/plain');
    const text = await scraped.body.text();
    const samples = parseSamples(text);
    const value = (series: string) => samples.get(series);

    expect(value('tollgate_console_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('tollgate_console_nodejs_eventloop_lag_p99_seconds')).toBeDefined();

    const http = (method: string, route: string, statusClass: string) =>
      value(
        `tollgate_console_http_requests_total{method="${method}",route="${route}",status_class="${statusClass}"}`,
      );
    expect(http('POST', '/api/v1/session', '2xx')).toBe(1);
    expect(http('POST', '/api/v1/session', '4xx')).toBe(7);
    expect(http('GET', '/api/v1/accounts/:namespace/keys', '2xx')).toBe(1);
    expect(http('GET', '/api/v1/accounts/:namespace/keys', '4xx')).toBe(1);
    expect(http('GET', '/api/v1/accounts/:namespace/keys/:name', '4xx')).toBe(1);
    expect(http('GET', 'api_unmatched', '4xx')).toBe(1);
    expect(http('GET', 'web', '2xx')).toBe(2);
    expect(
      value(
        'tollgate_console_http_request_duration_seconds_count{method="POST",route="/api/v1/session"}',
      ),
    ).toBe(8);

    const signIns = (method: string, result: string) =>
      value(`tollgate_console_sign_ins_total{method="${method}",result="${result}"}`);
    expect(signIns('local', 'success')).toBe(1);
    expect(signIns('local', 'bad_credentials')).toBe(refusedWrong);
    expect(signIns('local', 'rate_limited')).toBe(7 - refusedWrong);
    expect(signIns('local', 'error')).toBe(0);
    expect(signIns('oidc', 'oidc_error')).toBe(2);
    expect(signIns('oidc', 'success')).toBe(0);

    const kube = (verb: string, resource: string, result: string) =>
      value(
        `tollgate_console_kubernetes_requests_total{verb="${verb}",resource="${resource}",result="${result}"}`,
      );
    // The users Secret, read with the console's own identity at each password check (not for
    // the rate-limited attempts).
    expect(kube('get', 'secrets', 'success')).toBe(1 + refusedWrong);
    expect(kube('list', 'apikeys', 'success')).toBe(1);
    expect(kube('list', 'apikeys', 'forbidden')).toBe(1);
    expect(kube('get', 'apikeys', 'not_found')).toBe(1);
    expect(value('tollgate_console_kubernetes_request_duration_seconds_count{verb="get"}')).toBe(
      2 + refusedWrong,
    );

    // Labels carry patterns and classes only: no namespace, user, object name or raw path.
    expect(text).not.toMatch(/team-k|team-other|kim|mallory|no-such-key|no\/such|keys\/team/);

    const killer = setTimeout(() => started.kill('SIGKILL'), 15_000);
    try {
      started.kill('SIGTERM');
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    } finally {
      clearTimeout(killer);
    }
    await expect(request(metricsUrl)).rejects.toThrow();
  });
});

describe('console metrics with the Kubernetes API unreachable (in process)', () => {
  it('count the call as unreachable and the sign-in it broke as an error', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'gone', server: `https://127.0.0.1:${await freePort()}` }],
      users: [{ name: 'admin', token: 'unused' }],
      contexts: [{ name: 'gone', cluster: 'gone', user: 'admin' }],
      currentContext: 'gone',
    });
    const app = build(parseConsoleConfigObject({ logLevel: 'silent' }), { kubeConfig });
    try {
      const reply = await app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: 'alice', password: 'alice-password-1' },
      });
      expect(reply.statusCode).toBe(502);
      expect(reply.json<ApiBody>().error.code).toBe('KUBERNETES_ERROR');
      const samples = parseSamples(await app.consoleMetrics.registry.metrics());
      expect(
        samples.get(
          'tollgate_console_kubernetes_requests_total{verb="get",resource="secrets",result="unreachable"}',
        ),
      ).toBe(1);
      expect(samples.get('tollgate_console_sign_ins_total{method="local",result="error"}')).toBe(1);
      expect(
        samples.get(
          'tollgate_console_http_requests_total{method="POST",route="/api/v1/session",status_class="5xx"}',
        ),
      ).toBe(1);
    } finally {
      await app.close();
    }
  });
});
