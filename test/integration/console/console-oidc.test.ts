/**
 * OIDC sign-in against a real OpenID provider (oidc-provider on 127.0.0.1, PKCE required): the
 * authorization code flow over plain HTTP, the session's user and groups from the configured
 * claims, refusals of a wrong state or PKCE verifier, and RBAC through the impersonated identity.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { OIDC_COOKIE, SESSION_COOKIE } from '../../../console/server/auth/cookies.js';
import { MemorySessionStore } from '../../../console/server/auth/session-store.js';
import type { ConsoleConfigInput } from '../../../console/server/console-config.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { freePort } from '../../support/redis-server.js';
import { bindRole, buildConsole } from './console-harness.js';
import {
  CookieJar,
  hop,
  startOidcProvider,
  walkProvider,
  type OidcProvider,
} from './oidc-provider-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const accounts = {
  olga: {
    email: 'olga@example.test',
    preferredUsername: 'olga',
    groups: ['team-o-managers'],
    roles: ['key-admins'],
  },
  otto: { email: 'otto@example.test', preferredUsername: 'otto', groups: [], roles: [] },
};

interface Console {
  app: ConsoleApp;
  base: string;
  sessions: MemorySessionStore;
}

let plane: Plane;
let provider: OidcProvider;
const consoles: Console[] = [];
let byDefault: Console;
let byRoles: Console;

async function startConsole(
  port: number,
  oidc: Partial<NonNullable<ConsoleConfigInput['oidc']>> = {},
): Promise<Console> {
  const base = `http://127.0.0.1:${port}`;
  const sessions = new MemorySessionStore();
  const app = buildConsole(plane, {
    config: {
      localUsers: false,
      oidc: {
        issuer: provider.issuer,
        clientId: 'tollgate-console',
        clientSecret: 'console-client-secret',
        redirectUrl: `${base}/api/v1/auth/oidc/callback`,
        allowInsecureIssuer: true,
        ...oidc,
      },
    },
    parts: { sessions },
  });
  await app.listen({ host: '127.0.0.1', port });
  const started = { app, base, sessions };
  consoles.push(started);
  return started;
}

/** GET /auth/oidc/login: the redirect to the provider and the pending sign-in's cookie. */
async function beginSignIn(target: Console, jar: CookieJar) {
  const start = await hop(jar, { url: `${target.base}/api/v1/auth/oidc/login?returnTo=/keys` });
  expect(start.status).toBe(302);
  expect(jar.get(OIDC_COOKIE)).toBeDefined();
  return start.location ?? '';
}

/** Signs in at the provider and returns the console callback URL (not yet visited). */
async function callbackFor(target: Console, options: { jar: CookieJar; login: string }) {
  const authorize = await beginSignIn(target, options.jar);
  return walkProvider(options.jar, {
    url: authorize,
    login: options.login,
    stopAt: `${target.base}/api/v1/auth/oidc/callback`,
  });
}

async function signInWithOidc(target: Console, login: string) {
  const jar = new CookieJar();
  const callback = await callbackFor(target, { jar, login });
  const done = await hop(jar, { url: callback });
  expect(done.status).toBe(302);
  expect(done.location).toBe(`${target.base}/keys`);
  expect(jar.get(OIDC_COOKIE)).toBeUndefined();
  return jar;
}

async function getJson(target: Console, options: { jar: CookieJar; path: string }) {
  const answer = await hop(options.jar, { url: `${target.base}/api/v1${options.path}` });
  return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
}

beforeAll(async () => {
  plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-o']);
  await bindRole(plane, 'o-managers', 'tollgate-key-manager', [
    '--group',
    'team-o-managers',
    '-n',
    'team-o',
  ]);
  await plane.ok([
    'create',
    'rolebinding',
    'o-key-admins',
    '--clusterrole',
    'tollgate-viewer',
    '--group',
    'oidc:key-admins',
    '-n',
    'team-o',
  ]);
  const ports = [await freePort(), await freePort()];
  provider = await startOidcProvider({
    client: {
      id: 'tollgate-console',
      secret: 'console-client-secret',
      redirectUris: ports.map((port) => `http://127.0.0.1:${port}/api/v1/auth/oidc/callback`),
    },
    accounts,
  });
  byDefault = await startConsole(ports[0] ?? 0);
  byRoles = await startConsole(ports[1] ?? 0, {
    usernameClaim: 'preferred_username',
    groupsClaim: 'roles',
    usernamePrefix: 'oidc:',
    groupsPrefix: 'oidc:',
  });
});

afterAll(async () => {
  for (const started of consoles) await started.app.close();
  await provider.close();
  await plane.stop();
});

describe('OIDC sign-in', () => {
  it('offers OIDC and sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const methods = await getJson(byDefault, { jar: new CookieJar(), path: '/auth/methods' });
    expect(methods.body).toEqual({
      local: false,
      oidc: true,
      oidcName: new URL(provider.issuer).host,
    });
    const authorize = new URL(await beginSignIn(byDefault, new CookieJar()));
    expect(authorize.origin).toBe(provider.issuer);
    const query = authorize.searchParams;
    expect(query.get('response_type')).toBe('code');
    expect(query.get('client_id')).toBe('tollgate-console');
    expect(query.get('redirect_uri')).toBe(`${byDefault.base}/api/v1/auth/oidc/callback`);
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')).toMatch(/.{20,}/);
    expect(query.get('nonce')).toMatch(/.{20,}/);
  });

  it('signs in with the code flow; user and groups come from the default claims', async () => {
    const jar = await signInWithOidc(byDefault, 'olga');
    expect(jar.get(SESSION_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await getJson(byDefault, { jar, path: '/me' });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username: 'olga@example.test',
      groups: ['team-o-managers'],
      method: 'oidc',
    });
  });

  it('takes the username and groups from the configured claims, with prefixes', async () => {
    const jar = await signInWithOidc(byRoles, 'olga');
    const me = await getJson(byRoles, { jar, path: '/me' });
    expect(me.body).toMatchObject({
      username: 'oidc:olga',
      groups: ['oidc:key-admins'],
      method: 'oidc',
    });
  });

  it('refuses a callback whose state does not match the pending sign-in', async () => {
    const jar = new CookieJar();
    const callback = new URL(await callbackFor(byDefault, { jar, login: 'olga' }));
    callback.searchParams.set('state', 'forged-state-value-0123456789');
    const refused = await hop(jar, { url: callback.href });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a code redeemed with another PKCE verifier', async () => {
    const jar = new CookieJar();
    const callback = await callbackFor(byDefault, { jar, login: 'olga' });
    const pendingId = jar.get(OIDC_COOKIE) ?? '';
    const pending = (await byDefault.sessions.get('oidc', pendingId)) as Record<string, unknown>;
    await byDefault.sessions.set({
      kind: 'oidc',
      id: pendingId,
      ttlMs: 60_000,
      value: { ...pending, codeVerifier: 'another-verifier-'.padEnd(64, 'x') },
    });
    const refused = await hop(jar, { url: callback });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a callback without a pending sign-in and a replayed callback', async () => {
    const jar = new CookieJar();
    const callback = await callbackFor(byDefault, { jar, login: 'otto' });
    const stranger = await hop(new CookieJar(), { url: callback });
    expect(stranger.status).toBe(401);
    const first = await hop(jar, { url: callback });
    expect(first.status).toBe(302);
    const replay = await hop(jar, { url: callback });
    expect(replay.status).toBe(401);
  });
});

describe('impersonation of the OIDC identity', () => {
  it('lists keys for a user bound through the groups claim and refuses one who is not', async () => {
    const olga = await signInWithOidc(byDefault, 'olga');
    const allowed = await getJson(byDefault, { jar: olga, path: '/accounts/team-o/keys' });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ items: [] });
    const otto = await signInWithOidc(byDefault, 'otto');
    const refused = await getJson(byDefault, { jar: otto, path: '/accounts/team-o/keys' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('binds through the configured groups claim and prefix', async () => {
    const olga = await signInWithOidc(byRoles, 'olga');
    const allowed = await getJson(byRoles, { jar: olga, path: '/accounts/team-o/keys' });
    expect(allowed.status).toBe(200);
    const otto = await signInWithOidc(byRoles, 'otto');
    const refused = await getJson(byRoles, { jar: otto, path: '/accounts/team-o/keys' });
    expect(refused.status).toBe(403);
  });
});

describe('a provider without userinfo', () => {
  it('refuses with 401 when the username claim is only in userinfo', async () => {
    const port = await freePort();
    const bare = await startOidcProvider({
      client: {
        id: 'tollgate-console',
        secret: 'console-client-secret',
        redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/callback`],
      },
      accounts,
      userinfo: false,
    });
    try {
      const target = await startConsole(port, { issuer: bare.issuer });
      const jar = new CookieJar();
      const callback = await callbackFor(target, { jar, login: 'olga' });
      const refused = await hop(jar, { url: callback });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toEqual({
        error: {
          code: 'UNAUTHENTICATED',
          message: "The identity provider did not send the 'email' claim.",
        },
      });
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});
