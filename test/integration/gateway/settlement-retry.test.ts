/**
 * Settlement survives a Redis restart (issue #10, item 2): streams that complete while Redis is
 * down are settled once Redis is back, each with exactly one record and the right spend, and the
 * metrics show the waiting settlements and the failed attempts. A gateway that shuts down while
 * Redis is still down hands its waiting settlement over to lease expiry, which charges it as
 * estimated, once. Redis keeps its data across the restart (append-only file), as in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisStore } from '../../../store/redis-store.js';
import type { KeyPolicy, Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { freePort, startRedisServer, type RedisServer } from '../../support/redis-server.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { gatewayAddress, metricValue, startStreamedMessage } from './start-streamed-message.js';

const namespace = 'team-blink';
const redisDir = mkdtempSync(join(tmpdir(), 'tollgate-settlement-retry-'));
const secrets = newSecrets();
let redisPort = 0;
let redis: RedisServer | null = null;
let store: Store;
let fake: FakeProvider;
let gateway: FastifyInstance;
let apiKey = '';
let policy: KeyPolicy;

function startRedis(): Promise<RedisServer> {
  return startRedisServer({
    port: redisPort,
    extraArgs: ['--dir', redisDir, '--appendonly', 'yes', '--appendfsync', 'always'],
  });
}

async function stopRedis(): Promise<void> {
  await redis?.stop();
  redis = null;
}

/** Polls `condition`; a store error (the client reconnecting after a restart) counts as false. */
async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await condition().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis();
  store = await createRedisStore({ url: redis.url, prefix: 'tg:' });
  fake = await startFakeProvider();
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  const created = await createKey(store, secrets, { platform: 'Anthropic', namespace });
  apiKey = created.value;
  policy = created.policy;
  gateway = buildGateway(store, secrets, {
    config: { settlementRetryMs: 120_000, leaseSweepMs: 300 },
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await gateway.close();
  await store.close();
  await fake.close();
  await stopRedis();
  rmSync(redisDir, { recursive: true, force: true });
});

it('settles every call that completed while Redis was down, once, after it returns', async () => {
  const base = gatewayAddress(gateway);
  fake.setBehaviour({ chunkGapMs: 300, chunks: 10 });
  const calls = await Promise.all(
    Array.from({ length: 5 }, () => startStreamedMessage(base, apiKey)),
  );
  await stopRedis();
  const bodies = await Promise.all(calls.map((call) => call.body));
  expect(bodies.every((body) => body.includes('event: message_stop'))).toBe(true);

  // Completed, not yet settled: waiting in the queue while the store refuses.
  await waitFor(
    async () => (await metricValue(gateway, 'tollgate_pending_settlements')) === 5,
    'five pending settlements',
  );
  const failuresLine = 'tollgate_settlement_failures_total{reason="store_unavailable"}';
  await waitFor(async () => (await metricValue(gateway, failuresLine)) >= 10, 'retries');

  await sleep(2_000);
  redis = await startRedis();
  await waitFor(
    async () => (await metricValue(gateway, 'tollgate_pending_settlements')) === 0,
    'the queue to drain',
  );

  const records = await store.pendingUsageRecords(namespace, 100);
  expect(records).toHaveLength(5);
  expect(new Set(records.map((record) => record.requestId)).size).toBe(5);
  expect(records.every((record) => record.accuracy === 'exact' && record.costNano > 0)).toBe(true);
  const total = records.reduce((sum, record) => sum + record.costNano, 0);
  expect(await store.accountCounters(namespace)).toEqual({ spentNano: total, reservedNano: 0 });
  const counters = await store.keyCounters(namespace, policy.keyUid, Date.now());
  expect([counters.usedNano, counters.reservedNano]).toEqual([total, 0]);
  const handedOver = await gateway.gateway.registry.metrics();
  expect(handedOver).not.toMatch(/tollgate_settlements_handed_over_total\{[^}]*\} [1-9]/);
}, 90_000);

it('hands a settlement over to lease expiry when it shuts down with Redis away', async () => {
  const draining = buildGateway(store, secrets, {
    config: { leaseMs: 1_000, leaseSweepMs: 0, drainTimeoutMs: 1_000 },
  });
  await draining.listen({ host: '127.0.0.1', port: 0 });
  fake.setBehaviour({ chunkGapMs: 150, chunks: 4 });
  const before = (await store.pendingUsageRecords(namespace, 100)).length;
  const call = await startStreamedMessage(gatewayAddress(draining), apiKey);
  await stopRedis();
  await call.body;
  await waitFor(
    async () => (await metricValue(draining, 'tollgate_pending_settlements')) === 1,
    'one pending settlement',
  );
  draining.gateway.settlements.drainBy(Date.now() + 1_000);
  const metrics = draining.gateway.registry;
  await draining.close();
  expect(await metrics.metrics()).toContain(
    'tollgate_settlements_handed_over_total{reason="shutdown"} 1',
  );

  redis = await startRedis();
  // The other gateway's sweep charges the abandoned lease once it has ended.
  await waitFor(
    async () => (await store.pendingUsageRecords(namespace, 100)).length === before + 1,
    'the estimated record',
  );
  await sleep(1_000);
  const records = await store.pendingUsageRecords(namespace, 100);
  expect(records).toHaveLength(before + 1);
  const charged = records.filter((record) => record.accuracy === 'estimated');
  expect(charged).toHaveLength(1);
  expect(charged[0]?.flags).toEqual(['lease-expired']);
  const total = records.reduce((sum, record) => sum + record.costNano, 0);
  expect(await store.accountCounters(namespace)).toEqual({ spentNano: total, reservedNano: 0 });
}, 90_000);
