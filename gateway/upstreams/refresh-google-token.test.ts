import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { GoogleTokenCache } from './refresh-google-token.js';

/** A real token endpoint on 127.0.0.1 whose next answer each test chooses. */
let server: Server;
let tokenURL = '';
let calls = 0;
let answer: { status: number; body: string } = { status: 200, body: '' };

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls += 1;
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokenURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  calls = 0;
  answer = { status: 200, body: JSON.stringify({ access_token: 'at-1', expires_in: 3600 }) };
});

const credential = () => ({
  clientID: 'client',
  clientSecret: 'secret',
  refreshToken: 'refresh',
  projectID: 'p',
  tokenURL,
});

describe('GoogleTokenCache', () => {
  it('caches a token until 60 s before expiry and refetches after forget', async () => {
    let now = 1_000_000;
    const cache = new GoogleTokenCache({ clock: () => now });
    expect(await cache.accessToken(credential())).toBe('at-1');
    now += 3_539_000;
    expect(await cache.accessToken(credential())).toBe('at-1');
    expect(calls).toBe(1);
    now += 2_000;
    expect(await cache.accessToken(credential())).toBe('at-1');
    expect(calls).toBe(2);
    cache.forget(credential());
    await cache.accessToken(credential());
    expect(calls).toBe(3);
  });

  it('keeps one entry per credential', async () => {
    const cache = new GoogleTokenCache({ clock: () => 0 });
    await cache.accessToken(credential());
    await cache.accessToken({ ...credential(), refreshToken: 'rotated' });
    expect(calls).toBe(2);
  });

  it.each([
    ['a refusal', { status: 400, body: '{"error":"invalid_grant"}' }],
    ['a reply that is not JSON', { status: 200, body: '<html>' }],
    ['a reply without access_token', { status: 200, body: '{"expires_in":3600}' }],
  ])('maps %s to TG_UPSTREAM_AUTH_FAILED and caches nothing', async (_name, reply) => {
    answer = reply;
    const cache = new GoogleTokenCache({ clock: () => 0 });
    const error = await cache.accessToken(credential()).catch((caught: unknown) => caught);
    expect(GatewayError.is(error) && error.code).toBe('TG_UPSTREAM_AUTH_FAILED');
    expect(GatewayError.is(error) && error.statusCode).toBe(502);
    await cache.accessToken(credential()).catch(() => undefined);
    expect(calls).toBe(2);
  });

  it('maps an unreachable token endpoint to TG_UPSTREAM_AUTH_FAILED', async () => {
    const cache = new GoogleTokenCache({ clock: () => 0, timeoutMs: 2_000 });
    const error = await cache
      .accessToken({ ...credential(), tokenURL: 'http://127.0.0.1:1/token' })
      .catch((caught: unknown) => caught);
    expect(GatewayError.is(error) && error.code).toBe('TG_UPSTREAM_AUTH_FAILED');
  });
});
