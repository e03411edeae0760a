/**
 * A finished call does not stay alive while its settlement waits for Redis (docs/architecture.md,
 * "Settle"): the settlement holds only itself and its metric fields, and the lease renewer has let
 * go of the request's record (`LeaseRenewer.letGo`). Streams finish while Redis refuses writes
 * (`CLIENT PAUSE … WRITE`); with their settlements still waiting, a full garbage collection clears
 * weak references to the calls' records (each holds the request, its body, the relay and the
 * upstream attempt); once Redis takes writes again, every settlement lands, once.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { Store } from '../../../store/store.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { waitUntil } from '../../support/ledger/wait-until.js';
import { gatewayAddress, metricValue, startStreamedMessage } from './start-streamed-message.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const namespace = 'team-waiting';
const calls = 5;
const secrets = newSecrets();
let redis: RedisServer;
let control: Redis;
let store: Store;
let fake: FakeProvider;
let gateway: FastifyInstance;
let apiKey = '';
/** The records of the calls made so far (held weakly: what a waiting settlement must not keep). */
const records: WeakRef<object>[] = [];

/** Full collections, a turn apart (a weak reference read in a turn keeps its target to its end). */
async function collectFully(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    collectGarbage();
    await nextTurn();
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  control = new Redis(redis.url);
  store = await createRedisStore({ url: redis.url, prefix: 'tg:' });
  fake = await startFakeProvider();
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  apiKey = (await createKey(store, secrets, { platform: 'Anthropic', namespace })).value;
  gateway = buildGateway(store, secrets, { config: { settlementRetryMs: 120_000 } });
  // Fastify's own hook API, from the test: no hook in the gateway's code.
  gateway.addHook('onRequest', (incoming: FastifyRequest, _reply, done) => {
    records.push(new WeakRef(incoming.tollgate));
    done();
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await control.call('CLIENT', 'UNPAUSE').catch(() => undefined);
  await gateway.close();
  await store.close();
  await fake.close();
  control.disconnect();
  await redis.stop();
});

const pendingSettlements = () => metricValue(gateway, 'tollgate_pending_settlements');

it('lets a finished call go while its settlement waits for Redis, then settles it once', async () => {
  const base = gatewayAddress(gateway);
  fake.setBehaviour({ chunkGapMs: 100, chunks: 5 });
  const started = await Promise.all(
    Array.from({ length: calls }, () => startStreamedMessage(base, apiKey)),
  );
  expect(records).toHaveLength(calls);
  // Admitted and streaming: from now on Redis runs no write (no settlement, no lease renewal).
  await control.call('CLIENT', 'PAUSE', '60000', 'WRITE');
  const bodies = await Promise.all(started.map((call) => call.body));
  expect(bodies.every((body) => body.includes('event: message_stop'))).toBe(true);
  await waitUntil('the settlements to wait', async () => (await pendingSettlements()) === calls);

  await collectFully();
  expect(records.filter((record) => record.deref() !== undefined)).toHaveLength(0);
  // Still waiting: nothing was written meanwhile.
  expect(await pendingSettlements()).toBe(calls);
  expect(await control.xlen(`tg:{ns:${namespace}}:usage`)).toBe(0);

  await control.call('CLIENT', 'UNPAUSE');
  await waitUntil('the settlements to land', async () => (await pendingSettlements()) === 0);
  const landed = await store.pendingUsageRecords(namespace, 100);
  expect(landed).toHaveLength(calls);
  expect(new Set(landed.map((record) => record.requestId)).size).toBe(calls);
  expect(landed.every((record) => record.accuracy === 'exact' && record.costNano > 0)).toBe(true);
  const total = landed.reduce((sum, record) => sum + record.costNano, 0);
  expect(await store.accountCounters(namespace)).toEqual({ spentNano: total, reservedNano: 0 });
}, 90_000);
