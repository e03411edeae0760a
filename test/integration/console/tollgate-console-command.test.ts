/**
 * `tollgate console` as a real process (`node bin/tollgate.js console`) against the local control
 * plane with RBAC on: it prints its listening line, signs a local user in over HTTP, answers keys
 * as that user (200 in the bound namespace, 403 elsewhere), creates a key (the value once), and
 * exits 0 on SIGTERM. Once with sessions in memory, once with sessions in a private Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { prepareTeamK, type ApiBody } from './console-harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const user = { username: 'kim', password: 'kim-password-123', groups: ['team-k-managers'] };

let plane: Plane;
let redis: RedisServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  plane = await startPlane();
  await prepareTeamK(plane, user);
  const account = join(mkdtempSync(join(tmpdir(), 'tollgate-console-command-')), 'account.yaml');
  writeFileSync(
    account,
    [
      'apiVersion: tollgate.dev/v1alpha1',
      'kind: Account',
      'metadata: { name: default, namespace: team-k }',
      "spec: { creditUSD: '10', maxConcurrentRequests: 3 }",
    ].join('\n'),
  );
  await plane.ok(['apply', '-f', account]);
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
  await redis.stop();
  await plane.stop();
});

interface Console {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown[]>;
  output: () => string;
}

/** Starts the command on a port the system picks; waits (20 s at most) for its listening line. */
async function startConsole(extraArgs: readonly string[]): Promise<Console> {
  const child = spawn(
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
      '--gateway-url',
      'http://127.0.0.1:1',
      ...extraArgs,
    ],
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    },
  );
  children.push(child);
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
  const deadline = Date.now() + 20_000;
  let match = listening.exec(output);
  while (match === null && child.exitCode === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    match = listening.exec(output);
  }
  if (match?.[1] === undefined) {
    throw new Error(`tollgate console printed no listening line:\n${output}`);
  }
  return { child, url: match[1], exited, output: () => output };
}

interface Session {
  cookie: string;
  csrf: string;
}

async function signIn(url: string): Promise<Session> {
  const response = await request(`${url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  const body = (await response.body.json()) as ApiBody;
  expect(response.statusCode).toBe(200);
  const setCookie = [response.headers['set-cookie'] ?? []].flat().join('\n');
  expect(setCookie).toMatch(/HttpOnly/);
  const cookie = /tollgate_console_session=[^;]+/.exec(setCookie)?.[0];
  if (cookie === undefined) throw new Error(`no session cookie in: ${setCookie}`);
  return { cookie, csrf: body.csrfToken };
}

async function call(
  url: string,
  session: Session,
  route: { method: 'GET' | 'POST'; path: string; body?: unknown },
): Promise<{ status: number; body: ApiBody }> {
  const response = await request(`${url}${route.path}`, {
    method: route.method,
    headers: {
      cookie: session.cookie,
      ...(route.method === 'GET'
        ? {}
        : { 'x-csrf-token': session.csrf, 'content-type': 'application/json' }),
    },
    ...(route.body === undefined ? {} : { body: JSON.stringify(route.body) }),
  });
  return { status: response.statusCode, body: (await response.body.json()) as ApiBody };
}

async function exerciseAndStop(
  extraArgs: readonly string[],
  keyName: string,
  standingSource: 'store' | 'status',
): Promise<void> {
  const running = await startConsole(extraArgs);
  const session = await signIn(running.url);
  const me = await call(running.url, session, { method: 'GET', path: '/api/v1/me' });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ username: 'kim', groups: ['team-k-managers'] });

  const listed = await call(running.url, session, {
    method: 'GET',
    path: '/api/v1/accounts/team-k/keys',
  });
  expect(listed.status).toBe(200);
  const foreign = await call(running.url, session, {
    method: 'GET',
    path: '/api/v1/accounts/team-other/keys',
  });
  expect(foreign.status).toBe(403);
  expect(foreign.body.error.code).toBe('FORBIDDEN');

  const withoutToken = await request(`${running.url}/api/v1/accounts/team-k/keys`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: keyName }),
  });
  expect(withoutToken.statusCode).toBe(403);
  expect(((await withoutToken.body.json()) as ApiBody).error.code).toBe('CSRF_REJECTED');

  const created = await call(running.url, session, {
    method: 'POST',
    path: '/api/v1/accounts/team-k/keys',
    body: { name: keyName, displayName: 'From the command' },
  });
  expect(created.status).toBe(201);
  expect(created.body.value).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
  const read = await request(`${running.url}/api/v1/accounts/team-k/keys/${keyName}`, {
    headers: { cookie: session.cookie },
  });
  expect(read.statusCode).toBe(200);
  expect(await read.body.text()).not.toContain(created.body.value);
  const after = await call(running.url, session, {
    method: 'GET',
    path: '/api/v1/accounts/team-k/keys',
  });
  expect(after.body.items.map((item) => item.name)).toContain(keyName);

  // The dashboard's standing: live counters from the store when the console has Redis.
  const standing = await request(`${running.url}/api/v1/accounts/team-k/usage/account`, {
    headers: { cookie: session.cookie },
  });
  expect(standing.statusCode).toBe(200);
  expect(await standing.body.json()).toMatchObject({
    source: standingSource,
    inFlight: standingSource === 'store' ? 0 : null,
    maxConcurrentRequests: 3,
  });

  const killer = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
  try {
    running.child.kill('SIGTERM');
    const [code, signal] = await running.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  } finally {
    clearTimeout(killer);
  }
  expect(running.output()).not.toContain(created.body.value);
}

describe('tollgate console (process)', () => {
  it('serves sign-in and keys with sessions in memory, and exits 0 on SIGTERM', async () => {
    await exerciseAndStop([], 'from-memory-run', 'status');
  });

  it('serves sign-in and keys with sessions in Redis, and exits 0 on SIGTERM', async () => {
    await exerciseAndStop(['--redis-url', redis.url], 'from-redis-run', 'store');
    const inspect = new Redis(redis.url);
    try {
      // The session was stored in Redis (under the id's hash), so it outlives the process.
      expect(await inspect.keys('tg:console:session:*')).toHaveLength(1);
    } finally {
      inspect.disconnect();
    }
  });
});
