/**
 * Cluster mode: sessions in a private Redis survive a console restart and are shared by replicas;
 * sign-out deletes the session for every replica; idle and absolute expiry hold, and Redis holds
 * each record no longer than the session may live.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { freePort, startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { buildConsole, call, signIn, writeUsersSecret, type ApiBody } from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const user = { username: 'rita', password: 'rita-password-12', groups: ['team-r'] };

let plane: Plane;
let redis: RedisServer;
let inspect: Redis;
let clock = Date.now();
const open: ConsoleApp[] = [];

function replica(): ConsoleApp {
  const app = buildConsole(plane, {
    config: { redisUrl: redis.url, sessionIdleSeconds: 600, sessionMaxSeconds: 3600 },
    parts: { now: () => clock },
  });
  open.push(app);
  return app;
}

async function closeReplica(app: ConsoleApp): Promise<void> {
  await app.close();
  open.splice(open.indexOf(app), 1);
}

async function sessionKeys(): Promise<string[]> {
  return inspect.keys('tg:console:session:*');
}

beforeAll(async () => {
  plane = await startPlane();
  redis = await startRedisServer();
  inspect = new Redis(redis.url);
  await writeUsersSecret(plane, [user]);
});

afterAll(async () => {
  for (const app of [...open]) await app.close();
  inspect.disconnect();
  await redis.stop();
  await plane.stop();
});

describe('sessions in Redis', () => {
  it('keeps a session across a console restart on the same Redis', async () => {
    const first = replica();
    const signed = await signIn(first, user);
    expect(await sessionKeys()).toHaveLength(1);
    await closeReplica(first);
    const second = replica();
    const me = await call(second, signed, { method: 'GET', url: '/api/v1/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json<ApiBody>()).toMatchObject({
      username: 'rita',
      groups: ['team-r'],
      csrfToken: signed.csrf,
    });
    const out = await call(second, signed, { method: 'DELETE', url: '/api/v1/session' });
    expect(out.statusCode).toBe(200);
    await closeReplica(second);
  });

  it('stores only the SHA-256 of the cookie id, with an expiry no longer than the idle time', async () => {
    const app = replica();
    const signed = await signIn(app, user);
    const id = signed.cookie.split('=')[1] ?? '';
    const keys = await sessionKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(id);
    const ttl = await inspect.pttl(keys[0] ?? '');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000);
    await call(app, signed, { method: 'DELETE', url: '/api/v1/session' });
    await closeReplica(app);
  });

  it('signs out on one replica for both, and the session is gone from Redis', async () => {
    const one = replica();
    const two = replica();
    const signed = await signIn(one, user);
    const seen = await call(two, signed, { method: 'GET', url: '/api/v1/me' });
    expect(seen.statusCode).toBe(200);
    const out = await call(two, signed, { method: 'DELETE', url: '/api/v1/session' });
    expect(out.statusCode).toBe(200);
    expect(await sessionKeys()).toEqual([]);
    for (const app of [one, two]) {
      const after = await call(app, signed, { method: 'GET', url: '/api/v1/me' });
      expect(after.statusCode).toBe(401);
      expect(after.json<ApiBody>().error.code).toBe('UNAUTHENTICATED');
    }
    await closeReplica(one);
    await closeReplica(two);
  });

  it('ends a session after the idle time and after the absolute time, across restarts', async () => {
    const first = replica();
    const idle = await signIn(first, user);
    await closeReplica(first);
    clock += 601_000;
    const second = replica();
    const expired = await call(second, idle, { method: 'GET', url: '/api/v1/me' });
    expect(expired.statusCode).toBe(401);
    expect(await sessionKeys()).toEqual([]);

    const kept = await signIn(second, user);
    for (let step = 0; step < 7; step += 1) {
      clock += 500_000;
      const used = await call(second, kept, { method: 'GET', url: '/api/v1/me' });
      expect(used.statusCode).toBe(200);
    }
    await closeReplica(second);
    clock += 300_000;
    const third = replica();
    const over = await call(third, kept, { method: 'GET', url: '/api/v1/me' });
    expect(over.statusCode).toBe(401);
    expect(await sessionKeys()).toEqual([]);
    await closeReplica(third);
  });

  it('answers 503 SESSIONS_UNAVAILABLE when Redis cannot be reached', async () => {
    const app = buildConsole(plane, {
      config: { redisUrl: `redis://127.0.0.1:${await freePort()}` },
    });
    open.push(app);
    const answer = await call(
      app,
      { cookie: 'tollgate_console_session=abc', csrf: '' },
      {
        method: 'GET',
        url: '/api/v1/me',
      },
    );
    expect(answer.statusCode).toBe(503);
    expect(answer.json<ApiBody>().error.code).toBe('SESSIONS_UNAVAILABLE');
    await closeReplica(app);
  });
});
