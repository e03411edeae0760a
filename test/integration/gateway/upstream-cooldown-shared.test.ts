/**
 * Upstream health shared through Redis: two gateway instances, each with its own store client on
 * one Redis, see each other's cool-downs, circuits and sticky sessions; and the Redis commands one
 * call sends (MONITOR): the claim is the only command the pool adds to a healthy call, and a clean
 * claim of an upstream without limits is reused for the claim cache time.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { monitorRedis } from '../../support/monitor-redis.js';
import {
  buildGateway,
  newSecrets,
  postWithKey,
  writeAccount,
} from '../../support/gateway-fixture.js';
import {
  anthropicError,
  inOrder,
  messageBody,
  poolKey,
  putUpstream,
  sessionBody,
  settledRecord,
  TinyServers,
} from './upstream-failover-setup.js';

const secrets = newSecrets();
const namespace = 'team-shared-pool';
const prefix = `tg-test-pool-${randomUUID().slice(0, 8)}:`;
const tiny = new TinyServers();
let storeA: Store;
let storeB: Store;
let provider: FakeProvider;
let gatewayA: FastifyInstance;
let gatewayB: FastifyInstance;
let baseA: string;
let baseB: string;

beforeAll(async () => {
  storeA = await createStore({ redisUrl: inject('redisUrl'), prefix });
  storeB = await createStore({ redisUrl: inject('redisUrl'), prefix });
  provider = await startFakeProvider();
  await writeAccount(storeA, namespace);
  const config = { upstreamFailureThreshold: 2, upstreamCooldownBaseMs: 20_000 };
  gatewayA = buildGateway(storeA, secrets, { config, random: () => 0 });
  gatewayB = buildGateway(storeB, secrets, { config, random: () => 0.99 });
  baseA = await gatewayA.listen({ port: 0, host: '127.0.0.1' });
  baseB = await gatewayB.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await Promise.all([gatewayA.close(), gatewayB.close()]);
  await Promise.all([provider.close(), tiny.close()]);
  await Promise.all([storeA.close(), storeB.close()]);
});

function call(base: string, apiKey: string, body = messageBody()) {
  return postWithKey(`${base}/v1/messages`, apiKey, body);
}

describe('two gateways on one Redis', () => {
  it('share a cool-down: the second gateway never calls the upstream the first saw a 429 from', async () => {
    let limitedCalls = 0;
    const limitedURL = await tiny.start((incoming, response) => {
      limitedCalls += 1;
      anthropicError(429, { 'retry-after': '60' })(incoming, response);
    });
    const limited = await putUpstream(storeA, secrets, { prefix: 'lim', baseURL: limitedURL });
    const serving = await putUpstream(storeA, secrets, { prefix: 'ok', baseURL: provider.url });
    const apiKey = await poolKey(storeA, secrets, {
      namespace,
      upstreams: inOrder(limited, serving),
    });
    const first = await call(baseA, apiKey);
    expect(first.status).toBe(200);
    expect(limitedCalls).toBe(1);
    for (let index = 0; index < 3; index++) {
      const answer = await call(baseB, apiKey);
      expect(answer.status).toBe(200);
      expect((await settledRecord(storeB, namespace, answer.requestId)).attempts).toBe(1);
    }
    expect(limitedCalls).toBe(1);
    const health = (await storeB.upstreamHealth([limited], Date.now())).get(limited);
    expect(health).toMatchObject({ state: 'CoolingDown', cause: 'rate-limited' });
  });

  it('share a circuit: failures seen by both gateways open it for both', async () => {
    const refused = await putUpstream(storeA, secrets, {
      prefix: 'down',
      baseURL: await tiny.refused(),
    });
    const serving = await putUpstream(storeA, secrets, { prefix: 'ok', baseURL: provider.url });
    const apiKey = await poolKey(storeA, secrets, {
      namespace,
      upstreams: inOrder(refused, serving),
    });
    expect((await call(baseA, apiKey)).status).toBe(200);
    expect((await call(baseB, apiKey)).status).toBe(200);
    const health = (await storeA.upstreamHealth([refused], Date.now())).get(refused);
    expect(health).toMatchObject({ state: 'CircuitOpen', failures: 2 });
    const skipped = await call(baseA, apiKey);
    expect((await settledRecord(storeA, namespace, skipped.requestId)).attempts).toBe(1);
  });

  it('share sticky sessions: a conversation bound on one gateway stays there on the other', async () => {
    const a = await putUpstream(storeA, secrets, { prefix: 'sa', baseURL: provider.url });
    const b = await putUpstream(storeA, secrets, { prefix: 'sb', baseURL: provider.url });
    const apiKey = await poolKey(storeA, secrets, {
      namespace,
      upstreams: [a, b].map((name) => ({ name, weight: 1, priority: 0 })),
    });
    const session = randomUUID();
    // Gateway A's random picks the first, gateway B's the second: the session decides.
    const bound = await call(baseA, apiKey, sessionBody(session));
    expect((await settledRecord(storeA, namespace, bound.requestId)).upstream).toBe(a);
    const elsewhere = await call(baseB, apiKey, sessionBody(session));
    expect((await settledRecord(storeB, namespace, elsewhere.requestId)).upstream).toBe(a);
    const unbound = await call(baseB, apiKey, sessionBody(randomUUID()));
    expect((await settledRecord(storeB, namespace, unbound.requestId)).upstream).toBe(b);
  });
});

describe('Redis commands of one call', () => {
  // A warm-up call's settlement may wait a moment in the gateway's Redis socket: let it land first.
  const settled = (answer: { requestId: string }) =>
    settledRecord(storeA, namespace, answer.requestId);

  async function commandsOf(action: () => Promise<unknown>): Promise<string[]> {
    const commands = await monitorRedis(inject('redisUrl'), async () => {
      await action();
      // The settlement runs when the response closes: give it a moment to reach Redis.
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    // Only this suite's keys (other suites share the server), and not what scripts ran inside.
    return commands
      .filter(
        (command) => command.source !== 'lua' && command.args.some((arg) => arg.startsWith(prefix)),
      )
      .map((command) => command.name)
      .sort();
  }

  it('adds one FCALL (the claim) to a healthy call at most every 500 ms, and the claim replaces the slot script', async () => {
    const plain = await putUpstream(storeA, secrets, { prefix: 'plain', baseURL: provider.url });
    const apiKey = await poolKey(storeA, secrets, { namespace, upstreams: inOrder(plain) });
    await settled(await call(baseA, apiKey)); // warms the policy caches and loads the scripts
    // Admission and settlement: the key policy and the upstream's clean claim were read by the
    // call before, under 500 ms ago.
    expect(await commandsOf(() => call(baseA, apiKey))).toEqual(['fcall', 'fcall']);
    // Once the claim cache time is over, the claim runs again (the key policy is read again too).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await commandsOf(() => call(baseA, apiKey))).toEqual(['fcall', 'fcall', 'fcall', 'get']);
    const limited = await putUpstream(storeA, secrets, {
      prefix: 'limited',
      baseURL: provider.url,
      maxConcurrent: 5,
    });
    const limitedKey = await poolKey(storeA, secrets, { namespace, upstreams: inOrder(limited) });
    await settled(await call(baseA, limitedKey));
    // The same plus the slot's release: as before the pool (the claim takes the slot).
    expect(await commandsOf(() => call(baseA, limitedKey))).toEqual([
      'fcall',
      'fcall',
      'fcall',
      'zrem',
    ]);
  });
});
