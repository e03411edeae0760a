/**
 * The console API against the local control plane with RBAC on: sign-in, sessions, CSRF, rate
 * limit, keys as the signed-in user (impersonation), refusals from RBAC, audit Events, admin routes
 * and the OpenAPI document.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import { startPlane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  bindRole,
  bindUpstreamCredentials,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type ApiBody,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const users = [
  { username: 'alice', password: 'alice-password-1', groups: ['team-a-managers'] },
  { username: 'vera', password: 'vera-password-12', groups: [] },
  { username: 'bob', password: 'bob-password-123', groups: [] },
  { username: 'root', password: 'root-password-12', groups: ['platform'] },
];

let plane: Plane;
let app: ConsoleApp;
let clock = Date.now();
let alice: Signed;
let vera: Signed;
let bob: Signed;

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-a', 'team-b']) await plane.ok(['create', 'namespace', namespace]);
  await bindRole(plane, 'a-managers', 'tollgate-key-manager', [
    '--group',
    'team-a-managers',
    '-n',
    'team-a',
  ]);
  await bindRole(plane, 'vera-view', 'tollgate-viewer', ['--user', 'vera', '-n', 'team-a']);
  await bindRole(plane, 'bob-keys', 'tollgate-key-manager', ['--user', 'bob', '-n', 'team-b']);
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  await bindUpstreamCredentials(plane);
  app = buildConsole(plane, {
    config: {
      sessionIdleSeconds: 600,
      sessionMaxSeconds: 3600,
      signInFailures: { perUsername: 3, perAddress: 50, windowSeconds: 60 },
    },
    parts: { now: () => clock },
  });
  alice = await signIn(app, users[0]!);
  vera = await signIn(app, users[1]!);
  bob = await signIn(app, users[2]!);
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

describe('sign-in and sessions', () => {
  it('sets an HttpOnly SameSite=Lax session cookie and answers /me', async () => {
    const signed = await signIn(app, users[0]!);
    expect(signed.setCookie).toMatch(/HttpOnly/);
    expect(signed.setCookie).toMatch(/SameSite=Lax/);
    expect(signed.setCookie).not.toMatch(/Secure/);
    const me = await call(app, signed, { method: 'GET', url: '/api/v1/me' });
    expect(me.json<ApiBody>()).toMatchObject({ username: 'alice', groups: ['team-a-managers'] });
  });

  it('refuses a wrong password with 401 and rate limits failures with 429 and retry-after', async () => {
    const wrong = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: 'vera', password: 'not-her-password' },
      });
    const first = await wrong();
    expect(first.statusCode).toBe(401);
    expect(first.json<ApiBody>()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Wrong username or password.' },
    });
    await wrong();
    await wrong();
    const limited = await wrong();
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ApiBody>().error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const right = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: 'vera', password: users[1]!.password },
    });
    expect(right.statusCode).toBe(429);
    clock += 61_000;
  });

  it('ends a session on sign-out and after the idle time', async () => {
    const signed = await signIn(app, users[2]!);
    const out = await call(app, signed, { method: 'DELETE', url: '/api/v1/session' });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    const after = await call(app, signed, { method: 'GET', url: '/api/v1/me' });
    expect(after.statusCode).toBe(401);
    const idle = await signIn(app, users[2]!);
    clock += 601_000;
    const expired = await call(app, idle, { method: 'GET', url: '/api/v1/me' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json<ApiBody>().error.code).toBe('UNAUTHENTICATED');
    alice = await signIn(app, users[0]!);
    vera = await signIn(app, users[1]!);
    bob = await signIn(app, users[2]!);
  });

  it('refuses state-changing calls without the CSRF token or from another origin', async () => {
    const body = { displayName: 'csrf' };
    const missing = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      headers: { cookie: alice.cookie },
      payload: body,
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json<ApiBody>().error.code).toBe('CSRF_REJECTED');
    const foreign = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: body,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<ApiBody>().error.code).toBe('CSRF_REJECTED');
    const keys = await call(app, alice, { method: 'GET', url: '/api/v1/accounts/team-a/keys' });
    expect(keys.json<ApiBody>().items).toEqual([]);
  });
});

describe('keys as the signed-in user', () => {
  it('creates a key, returns the value once, and never again', async () => {
    const created = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: {
        name: 'k1',
        displayName: 'Key one',
        limits: { quotaUSD: '10', dailyUSD: 2 },
        sourceRanges: { allow: '10.0.0.0/8\n192.168.1.1\n', deny: '' },
        validFor: '30d',
        enabled: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json<ApiBody>();
    expect(body.value).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
    expect(body.key).toMatchObject({
      name: 'k1',
      state: 'enabled',
      limits: { quotaUSD: '10', dailyUSD: '2', fiveHourUSD: null },
      sourceRanges: { allow: ['10.0.0.0/8', '192.168.1.1'], deny: [] },
    });
    const list = await call(app, alice, { method: 'GET', url: '/api/v1/accounts/team-a/keys' });
    const read = await call(app, alice, { method: 'GET', url: '/api/v1/accounts/team-a/keys/k1' });
    expect(list.body).not.toContain(body.value);
    expect(read.body).not.toContain(body.value);
    const secrets = await plane.ok(['get', 'secrets', '-n', 'team-a', '-o', 'json']);
    expect(Buffer.from(secrets).toString()).toContain(Buffer.from(body.value).toString('base64'));
    const events = await plane.ok(['get', 'events', '-n', 'team-a', '-o', 'json']);
    expect(events).toContain('alice create ApiKey team-a/k1 through the console: succeeded');
    expect(events).not.toContain(body.value);
  });

  it('takes a chosen value and refuses a short one with the field', async () => {
    const short = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { displayName: 'short', value: 'abc' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json<ApiBody>().error).toMatchObject({ code: 'INVALID_INPUT', field: 'value' });
    const chosen = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'k2', displayName: 'chosen', value: 'my-own-value_0123456789' },
    });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json<ApiBody>().value).toBe('my-own-value_0123456789');
  });

  it('edits the group and limits, disables, enables, resets the quota and rotates', async () => {
    const url = '/api/v1/accounts/team-a/keys/k1';
    const edited = await call(app, alice, {
      method: 'PATCH',
      url,
      payload: { groupName: 'anthropic', limits: { dailyUSD: null, sevenDayUSD: '50' } },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<ApiBody>()).toMatchObject({
      groupName: 'anthropic',
      limits: { quotaUSD: '10', dailyUSD: null, sevenDayUSD: '50' },
    });
    const disabled = await call(app, alice, { method: 'POST', url: `${url}/disable` });
    expect(disabled.json<ApiBody>().state).toBe('disabled');
    const enabled = await call(app, alice, { method: 'POST', url: `${url}/enable` });
    expect(enabled.json<ApiBody>().state).toBe('enabled');
    const reset = await call(app, alice, { method: 'POST', url: `${url}/reset-quota` });
    expect(reset.statusCode).toBe(200);
    const annotation = await plane.ok([
      'get',
      'apikey',
      'k1',
      '-n',
      'team-a',
      '-o',
      'jsonpath={.metadata.annotations.tollgate\\.dev/reset-quota}',
    ]);
    expect(annotation).not.toBe('');
    const before = await plane.ok([
      'get',
      'apikey',
      'k1',
      '-n',
      'team-a',
      '-o',
      'jsonpath={.spec.secretName}',
    ]);
    const rotated = await call(app, alice, { method: 'POST', url: `${url}/rotate` });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json<ApiBody>().value).toMatch(/^sk-tg-/);
    const after = await plane.ok([
      'get',
      'apikey',
      'k1',
      '-n',
      'team-a',
      '-o',
      'jsonpath={.spec.secretName}',
    ]);
    expect(after).not.toBe(before);
  });

  it('lets a viewer read but not create, with the Kubernetes reason', async () => {
    const list = await call(app, vera, { method: 'GET', url: '/api/v1/accounts/team-a/keys' });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json<ApiBody>()
        .items.map((key: { name: string }) => key.name)
        .sort(),
    ).toEqual(['k1', 'k2']);
    const create = await call(app, vera, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { displayName: 'nope' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json<ApiBody>().error.code).toBe('FORBIDDEN');
    expect(create.json<ApiBody>().error.message).toContain(
      'User "vera" cannot create resource "secrets"',
    );
  });

  it("keeps a key manager of team-b out of team-a's keys and usage", async () => {
    const keys = await call(app, bob, { method: 'GET', url: '/api/v1/accounts/team-a/keys' });
    expect(keys.statusCode).toBe(403);
    expect(keys.json<ApiBody>().error.message).toContain(
      'User "bob" cannot list resource "apikeys"',
    );
    const usage = await call(app, bob, {
      method: 'GET',
      url: '/api/v1/accounts/team-a/usage/trend',
    });
    expect(usage.statusCode).toBe(403);
    expect(usage.json<ApiBody>().error.message).toContain(
      'may not read usage in namespace "team-a"',
    );
    const accounts = await call(app, bob, { method: 'GET', url: '/api/v1/accounts' });
    expect(accounts.json<ApiBody>().items.map((item) => item.namespace)).toEqual(['team-b']);
  });

  it('ignores identity headers sent by the browser', async () => {
    const forged = await call(app, bob, {
      method: 'GET',
      url: '/api/v1/accounts/team-a/keys',
      headers: {
        'impersonate-user': 'alice',
        'impersonate-group': 'system:masters',
        'x-remote-user': 'alice',
      },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json<ApiBody>().error.message).toContain('User "bob"');
  });

  it('deletes a key', async () => {
    const gone = await call(app, alice, {
      method: 'DELETE',
      url: '/api/v1/accounts/team-a/keys/k2',
    });
    expect(gone.statusCode).toBe(200);
    const read = await call(app, alice, { method: 'GET', url: '/api/v1/accounts/team-a/keys/k2' });
    expect(read.statusCode).toBe(404);
    expect(read.json<ApiBody>().error.code).toBe('NOT_FOUND');
  });
});

describe('admin routes', () => {
  it('refuses Groups, Upstreams and Accounts to non-admins', async () => {
    for (const url of [
      '/api/v1/admin/groups',
      '/api/v1/admin/upstreams',
      '/api/v1/admin/accounts',
    ]) {
      const response = await call(app, alice, { method: 'GET', url });
      expect(response.statusCode).toBe(403);
      expect(response.json<ApiBody>().error.code).toBe('FORBIDDEN');
    }
  });

  it('lets an admin create an Upstream whose credential goes to a Secret never returned', async () => {
    const root = await signIn(app, users[3]!);
    const created = await call(app, root, {
      method: 'POST',
      url: '/api/v1/admin/upstreams',
      payload: {
        name: 'anthropic-main',
        spec: { platform: 'Anthropic', baseURL: 'https://api.anthropic.com' },
        apiKeyValue: 'provider-secret-value-123',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('provider-secret-value-123');
    const list = await call(app, root, { method: 'GET', url: '/api/v1/admin/upstreams' });
    expect(list.body).not.toContain('provider-secret-value-123');
    const account = await call(app, root, {
      method: 'PUT',
      url: '/api/v1/admin/accounts/team-a',
      payload: { spec: { creditUSD: '100', displayName: 'Team A' } },
    });
    expect(account.statusCode, account.body).toBe(200);
    const accounts = await call(app, alice, { method: 'GET', url: '/api/v1/accounts' });
    expect(accounts.json<ApiBody>().items).toMatchObject([
      { namespace: 'team-a', creditUSD: '100', displayName: 'Team A', hasAccount: true },
    ]);
  });
});

describe('OpenAPI document', () => {
  it('describes every route under /api/v1', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const document = response.json<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    expect(document.openapi).toBe('3.1.0');
    for (const route of app.consoleRoutes) {
      expect(document.paths[`/api/v1${route.path}`]?.[route.method.toLowerCase()]).toBeDefined();
    }
    const create = document.paths['/api/v1/accounts/{namespace}/keys']?.post?.requestBody;
    expect(JSON.stringify(create)).toContain('"value"');
  });

  it('serves the built web app, or a placeholder page while it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tollgate-web-'));
    const built = mkdtempSync(join(tmpdir(), 'tollgate-web-'));
    writeFileSync(join(built, 'index.html'), '<!doctype html><title>built app</title>');
    const withoutWeb = buildConsole(plane, { config: { webRoot: empty } });
    const withWeb = buildConsole(plane, { config: { webRoot: built } });
    try {
      const placeholder = await withoutWeb.inject({ method: 'GET', url: '/' });
      expect(placeholder.statusCode).toBe(200);
      expect(placeholder.body).toContain('The web app is not built');
      const page = await withWeb.inject({ method: 'GET', url: '/keys' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('built app');
    } finally {
      await withoutWeb.close();
      await withWeb.close();
      rmSync(empty, { recursive: true, force: true });
      rmSync(built, { recursive: true, force: true });
    }
  });
});
