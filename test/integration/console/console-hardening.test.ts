/**
 * The console's defences in depth, against the local control plane: the Origin check compares with
 * the configured public origins (not the request's own Host), failed sign-ins slow down one
 * (user, client address) pair without locking the user out elsewhere, the client address and
 * protocol come from X-Forwarded-For / X-Forwarded-Proto only through trusted proxies, every answer
 * carries the security headers, and a malformed percent-encoding gets the console's error shape.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import {
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type ApiBody,
  startTeamAPlane,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const PUBLIC = 'https://console.example.com';
/** app.inject connects from 127.0.0.1; the tests name other sockets with remoteAddress. */
const PROXY = '127.0.0.1';
const STRANGER = '192.0.2.50';

const admin = { username: 'admin', password: 'admin-password-1', groups: ['platform'] };
const alice = { username: 'alice', password: 'alice-password-1', groups: ['team-a-managers'] };

let plane: Plane;
let app: ConsoleApp;
let clock = Date.now();

beforeAll(async () => {
  plane = await startTeamAPlane();
  await writeUsersSecret(plane, [admin, alice]);
  app = buildConsole(plane, {
    config: { publicOrigins: [PUBLIC], trustedProxies: PROXY },
    parts: { now: () => clock },
  });
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

function signInFrom(
  user: { username: string; password: string },
  from: { forwardedFor?: string; remoteAddress?: string; proto?: string },
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/session',
    remoteAddress: from.remoteAddress ?? PROXY,
    headers: {
      ...(from.forwardedFor === undefined ? {} : { 'x-forwarded-for': from.forwardedFor }),
      ...(from.proto === undefined ? {} : { 'x-forwarded-proto': from.proto }),
    },
    payload: { username: user.username, password: user.password },
  });
}

const wrong = (user: { username: string }) => ({ username: user.username, password: 'not-it-0' });

describe('the Origin check', () => {
  it('refuses a forged Host with a matching Origin, and accepts the public origin', async () => {
    const signed = await signIn(app, alice);
    const forged = await call(app, signed, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'forged', displayName: 'forged' },
      headers: { host: 'evil.example', origin: 'http://evil.example' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json<ApiBody>().error.code).toBe('CSRF_REJECTED');
    const own = await call(app, signed, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'own', displayName: 'own' },
      headers: { origin: PUBLIC },
    });
    expect(own.statusCode).toBe(201);
  });
});

describe('sign-in throttling', () => {
  it('delays one (user, address) pair, growing, while another address signs in', async () => {
    const attacker = { forwardedFor: '203.0.113.7' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await signInFrom(wrong(admin), attacker)).statusCode);
    }
    // Three failures are free; then each failure doubles the wait (1 s, 2 s, 4 s ...).
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const delayed = await signInFrom(admin, attacker);
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json<ApiBody>().error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(delayed.headers['retry-after']).toBe('1');
    clock += 1_000;
    expect((await signInFrom(wrong(admin), attacker)).statusCode).toBe(401);
    expect((await signInFrom(admin, attacker)).headers['retry-after']).toBe('2');
    clock += 2_000;
    expect((await signInFrom(wrong(admin), attacker)).statusCode).toBe(401);
    expect((await signInFrom(admin, attacker)).headers['retry-after']).toBe('4');
    // The administrator, from their own address, is not locked out.
    const own = await signInFrom(admin, { forwardedFor: '198.51.100.20' });
    expect(own.statusCode).toBe(200);
  });

  it('holds a per-user ceiling across addresses', async () => {
    clock += 3_600_000;
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const address = `203.0.113.${attempt + 1}`;
      expect((await signInFrom(wrong(alice), { forwardedFor: address })).statusCode).toBe(401);
    }
    const fresh = await signInFrom(alice, { forwardedFor: '198.51.100.99' });
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(800);
    clock += 901_000;
    expect((await signInFrom(alice, { forwardedFor: '198.51.100.99' })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from a socket that is not a trusted proxy', async () => {
    clock += 3_600_000;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const spoofed = { remoteAddress: STRANGER, forwardedFor: `203.0.113.${attempt + 1}` };
      expect((await signInFrom(wrong(admin), spoofed)).statusCode).toBe(401);
    }
    // All three counted against the stranger's own address: the pair is delayed.
    const next = await signInFrom(admin, { remoteAddress: STRANGER, forwardedFor: '203.0.113.9' });
    expect(next.statusCode).toBe(429);
  });
});

describe('the session cookie behind a TLS-terminating proxy', () => {
  it('is Secure with X-Forwarded-Proto https from a trusted proxy only', async () => {
    clock += 3_600_000;
    const trusted = await signInFrom(alice, { forwardedFor: '198.51.100.1', proto: 'https' });
    expect(trusted.statusCode).toBe(200);
    expect(String(trusted.headers['set-cookie'])).toMatch(/; Secure/);
    const untrusted = await signInFrom(alice, { remoteAddress: STRANGER, proto: 'https' });
    expect(untrusted.statusCode).toBe(200);
    expect(String(untrusted.headers['set-cookie'])).not.toMatch(/Secure/);
    const plain = await signInFrom(alice, { forwardedFor: '198.51.100.1', proto: 'http' });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});

describe('security headers', () => {
  it('come with the web app, the API and errors', async () => {
    for (const url of ['/', '/accounts/team-a/keys', '/api/v1/auth/methods', '/api/v1/me']) {
      const response = await app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
});

describe('a malformed percent-encoding in the path', () => {
  it.each([
    '/api/namespaces/%E0%A4%A/keys',
    '/api/v1/accounts/%E0%A4%A/keys',
    '/api/v1/accounts/team-a/keys/%ZZ',
    '/accounts/%E0%A4%A/keys',
  ])('%s gets the console error shape', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    const body = response.json<ApiBody>();
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe('INVALID_INPUT');
    expect(body.error.message).toContain('malformed percent-encoding');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
