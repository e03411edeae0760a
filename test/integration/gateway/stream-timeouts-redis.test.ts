/**
 * The first-output timeout on Redis: the Group's setting travels in the key document the Redis
 * store keeps, the stall is reported to the upstream health in Redis (so a second gateway on the
 * same Redis skips the stalled upstream), and the record carries the attempts and the flag.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  postWithKey,
  writeAccount,
} from '../../support/gateway-fixture.js';
import { inOrder, messageBody, settledRecord, TinyServers } from './upstream-failover-setup.js';
import { putPlatformUpstream, startStallingUpstream } from './stream-timeouts-setup.js';

const secrets = newSecrets();
const namespace = 'team-stream-timeouts-redis';
const prefix = `tg-test-stall-${randomUUID().slice(0, 8)}:`;
const tiny = new TinyServers();
let stores: Store[] = [];
let provider: FakeProvider;
let gateways: FastifyInstance[] = [];
let bases: string[] = [];

beforeAll(async () => {
  stores = [
    await createStore({ redisUrl: inject('redisUrl'), prefix }),
    await createStore({ redisUrl: inject('redisUrl'), prefix }),
  ];
  provider = await startFakeProvider({ keepRequests: 100 });
  await writeAccount(stores[0] as Store, namespace);
  const config = { upstreamFailureThreshold: 1, upstreamClaimCacheMs: 0 };
  gateways = stores.map((store) => buildGateway(store, secrets, { config }));
  bases = await Promise.all(
    gateways.map((gateway) => gateway.listen({ port: 0, host: '127.0.0.1' })),
  );
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await Promise.all([provider.close(), tiny.close()]);
  await Promise.all(stores.map((store) => store.close()));
});

describe('first-output timeout on Redis', () => {
  it('fails over, opens the stalled upstream for every gateway, and records both attempts', async () => {
    const [storeA, storeB] = stores as [Store, Store];
    const stall = await startStallingUpstream(tiny);
    const stalling = await putPlatformUpstream(storeA, secrets, {
      prefix: 'stalling',
      platform: 'Anthropic',
      baseURL: stall.url,
    });
    const serving = await putPlatformUpstream(storeA, secrets, {
      prefix: 'serving',
      platform: 'Anthropic',
      baseURL: provider.url,
    });
    const { value: apiKey } = await createKey(storeA, secrets, {
      platform: 'Anthropic',
      namespace,
      upstreams: inOrder(stalling, serving),
      group: { firstOutputTimeoutMs: 300 },
    });
    const body = messageBody({ stream: true });
    const first = await postWithKey(`${bases[0]}/v1/messages`, apiKey, body);
    expect(first.status).toBe(200);
    const record = await settledRecord(storeA, namespace, first.requestId);
    expect(record).toMatchObject({ upstream: serving, attempts: 2, status: 200 });
    expect(record.flags).toContain('first-output-timeout');
    expect(record.costNano).toBeGreaterThan(0);
    const health = (await storeB.upstreamHealth([stalling], Date.now())).get(stalling);
    expect(health).toMatchObject({ state: 'CircuitOpen', cause: 'failed' });
    // The other gateway skips the stalled upstream: one attempt, no second call to it.
    const second = await postWithKey(`${bases[1]}/v1/messages`, apiKey, body);
    expect(second.status).toBe(200);
    expect(await settledRecord(storeB, namespace, second.requestId)).toMatchObject({
      upstream: serving,
      attempts: 1,
    });
    expect(stall.calls).toBe(1);
  });
});
