/**
 * Redis-specific behaviour on a private server: scripts run by FCALL (the store's function library)
 * with one command per admission and per settlement, and a Redis that stops and comes back on the same port.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import { StoreUnavailableError } from '../../../store/store.js';
import { monitorRedis } from '../../support/monitor-redis.js';
import type { RedisServer } from '../../support/redis-server.js';
import { freePort, startRedisServer } from '../../support/redis-server.js';
import { admission, leaseCharge, settlement, tenant } from './store-fixtures.js';

/** `cmdstat_<name>` -> calls, from INFO commandstats (commands run inside scripts included). */
async function commandCalls(observer: Redis): Promise<Map<string, number>> {
  const info = await observer.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

/**
 * The commands clients sent while `action` ran, as MONITOR reports them (commands a script runs
 * are reported with source `lua` and left out, unless `source` is `lua`: then only those). An ECHO
 * from the observer marks the end.
 */
async function clientCommands(
  url: string,
  action: () => Promise<unknown>,
  source: 'client' | 'lua' = 'client',
): Promise<string[]> {
  const commands = await monitorRedis(url, action);
  return commands
    .filter((command) => (command.source === 'lua') === (source === 'lua'))
    .map((command) => command.name);
}

describe('redis store commands', () => {
  let server: RedisServer;
  let store: Store;
  let observer: Redis;
  const prefix = `test:commands:${randomUUID()}:`;

  beforeAll(async () => {
    server = await startRedisServer();
    store = await createStore({ redisUrl: server.url, prefix });
    observer = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await store.close();
    observer.disconnect();
    await server.stop();
  });

  it('uses one FCALL per admission and one per settlement, after loading the library once', async () => {
    expect(store.kind).toBe('redis');
    const now = Date.now();
    const who = await tenant(store);
    const warm = admission({ ...who, now });
    await store.admit(warm);
    await store.settle(settlement({ ...who, now }, { requestId: warm.requestId }));

    await observer.config('RESETSTAT');
    const request = admission({ ...who, now });
    const admitCommands = await clientCommands(server.url, async () => {
      expect((await store.admit(request)).admitted).toBe(true);
    });
    expect(admitCommands).toEqual(['fcall']);

    const settleCommands = await clientCommands(server.url, async () => {
      const done = await store.settle(
        settlement({ ...who, now }, { requestId: request.requestId }),
      );
      expect(done.applied).toBe(true);
    });
    expect(settleCommands).toEqual(['fcall']);
    const stats = await commandCalls(observer);
    expect(stats.get('fcall')).toBe(2);
    expect(stats.has('function|load')).toBe(false);
    expect(stats.has('evalsha')).toBe(false);
    expect(stats.has('eval')).toBe(false);
  });

  // Before the usage streams the settlement script ran 41 commands (the record in a hash and two
  // ZSETs, 18 HINCRBY of daily aggregates, their index, one HGET per window); 13 until the release
  // of the key's reservation moved into the charge's HMGET and HSET. The account's first charge
  // (nothing spent before) also checks the whole-counters marker: 11.
  it('settles with 10 commands inside the script: counters, account spend, one XADD', async () => {
    const now = Date.now();
    const who = await tenant(store);
    const settleInside = async () => {
      const request = admission({ ...who, now });
      await store.admit(request);
      return clientCommands(
        server.url,
        () => store.settle(settlement({ ...who, now }, { requestId: request.requestId })),
        'lua',
      );
    };
    const steady = [
      'set',
      'hget',
      'hdel',
      'hdel',
      'zrem',
      'hmget',
      'hset',
      'hincrby',
      'hincrby',
      'xadd',
    ];
    expect(await settleInside()).toEqual([...steady.slice(0, 9), 'hexists', 'xadd']);
    expect(await settleInside()).toEqual(steady);
  });

  // 15 commands before: one HMGET per window, HEXISTS for a request id in flight, one HINCRBY per
  // counter, GET and PEXPIRE of the session binding.
  it('admits with every check on in 11 commands inside the script', async () => {
    const now = Date.now();
    const who = await tenant(store, { creditNano: 1_000_000_000, maxConcurrent: 100 });
    const limits = { quotaNano: 1e12, fiveHourNano: 1e12, dailyNano: 1e12, sevenDayNano: 1e12 };
    const admitInside = () => {
      const requestId = randomUUID();
      return clientCommands(
        server.url,
        () =>
          store.admit(
            admission(
              { ...who, now },
              {
                requestId,
                limits,
                keyMaxConcurrent: 100,
                charge: leaseCharge({ ...who, now, requestId }),
                session: { id: 'session', ttlMs: 60_000 },
              },
            ),
          ),
        'lua',
      );
    };
    await admitInside();
    expect(await admitInside()).toEqual([
      'zrangebyscore',
      'hmget',
      'hmget',
      'hmget',
      'zcard',
      'zadd',
      'hsetnx',
      'hset',
      'hset',
      'hincrby',
      'getex',
    ]);
  });

  it('claims a healthy upstream with one HMGET, and counts its minute with one INCR', async () => {
    const now = 1_800_000_000_000;
    const upstream = `claim-${randomUUID()}`;
    const claim = (requestsPerMinute: number, limit: number) =>
      clientCommands(
        server.url,
        () =>
          store.claimUpstream({
            upstream,
            requestId: randomUUID(),
            limit,
            requestsPerMinute,
            now,
            leaseMs: 60_000,
            probeLeaseMs: 10_000,
          }),
        'lua',
      );
    expect(await claim(0, 0)).toEqual(['hmget']);
    expect(await claim(100, 10)).toEqual(['hmget', 'incr', 'pexpireat', 'zcard', 'zadd']);
    expect(await claim(100, 10)).toEqual(['hmget', 'incr', 'zcard', 'zadd']);
    const minute = `${prefix}upstream:{${upstream}}:rpm:${now}`;
    expect(await observer.get(minute)).toBe('2');
    expect(await observer.pexpiretime(minute)).toBe(now + 61_000);
  });

  it('keeps the hot path within budget: policy read, admission, settlement, upstream slot', async () => {
    const now = Date.now();
    const who = await tenant(store);
    await store.putKeyPolicy('hot-path-hash', {
      digest: 'd',
      keyUid: who.keyUid,
      namespace: who.namespace,
      name: 'k',
      state: 'Active',
      suspended: false,
      expiresAt: null,
      limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      sourceRanges: { allow: [], deny: [] },
      maxConcurrent: 0,
      modelsAllow: null,
      group: null,
    });
    const upstreamSlot = {
      upstream: 'hot',
      requestId: randomUUID(),
      limit: 5,
      now,
      leaseMs: 1_000,
    };
    await store.acquireUpstreamSlot(upstreamSlot);
    const request = admission({ ...who, now });
    const commands = await clientCommands(server.url, async () => {
      await store.getKeyPolicy('hot-path-hash');
      await store.admit(request);
      await store.acquireUpstreamSlot({ ...upstreamSlot, requestId: request.requestId });
      await store.releaseUpstreamSlot('hot', request.requestId);
      await store.settle(settlement({ ...who, now }, { requestId: request.requestId }));
    });
    expect(commands).toEqual(['get', 'fcall', 'fcall', 'zrem', 'fcall']);
  });
});

describe('redis stopped and restarted', () => {
  it('rejects quickly with StoreUnavailableError while down and recovers by itself', async () => {
    const port = await freePort();
    let server = await startRedisServer({ port });
    const store = await createStore({
      redisUrl: server.url,
      prefix: `test:restart:${randomUUID()}:`,
    });
    try {
      const now = Date.now();
      const who = await tenant(store);
      expect((await store.admit(admission({ ...who, now }))).admitted).toBe(true);

      await server.stop();
      const started = Date.now();
      const calls = [
        store.admit(admission({ ...who, now })),
        store.getKeyPolicy('anything'),
        store.ping(),
      ];
      for (const call of calls)
        await expect(call).rejects.toSatisfy((error) => StoreUnavailableError.is(error));
      expect(Date.now() - started).toBeLessThan(3_000);

      server = await startRedisServer({ port });
      let recovered = false;
      for (let attempt = 0; attempt < 100 && !recovered; attempt++) {
        recovered = await store.ping().then(
          () => true,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 100));
            return false;
          },
        );
      }
      expect(recovered).toBe(true);
      // The new server has no functions loaded and no data: the library is loaded again.
      await store.putAccount(who.namespace, {
        digest: 'a',
        uid: who.accountUid,
        namespace: who.namespace,
        creditNano: null,
        maxConcurrent: 0,
      });
      expect(await store.admit(admission({ ...who, now }))).toEqual({
        admitted: true,
        accountUid: who.accountUid,
      });
    } finally {
      await store.close();
      await server.stop();
    }
  });
});
