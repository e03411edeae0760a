/**
 * Cluster behaviour on real Redis: two gateway instances sharing one Redis enforce one account
 * concurrency limit; a Redis outage is answered 503 in each caller's protocol and the gateway
 * recovers by itself when Redis returns.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';

const message = (stream: boolean) =>
  JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 8,
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });

async function call(base: string, apiKey: string, stream = false) {
  return request(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: message(stream),
  });
}

describe('two gateways on one Redis', () => {
  const secrets = newSecrets();
  const prefix = `tg-test-gw-shared-${Date.now()}:`;
  let storeA: Store;
  let storeB: Store;
  let fake: FakeProvider;
  let gatewayA: FastifyInstance;
  let gatewayB: FastifyInstance;

  beforeAll(async () => {
    storeA = await createStore({ redisUrl: inject('redisUrl'), prefix });
    storeB = await createStore({ redisUrl: inject('redisUrl'), prefix });
    fake = await startFakeProvider();
    await writeUpstreams(storeA, { secrets, baseURL: fake.url });
    gatewayA = buildGateway(storeA, secrets);
    gatewayB = buildGateway(storeB, secrets);
    await gatewayA.listen({ port: 0, host: '127.0.0.1' });
    await gatewayB.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await Promise.all([gatewayA.close(), gatewayB.close()]);
    await fake.close();
    await Promise.all([storeA.close(), storeB.close()]);
  });

  const urlOf = (app: FastifyInstance) => {
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}`;
  };

  it('enforces one account concurrency limit across instances', async () => {
    await writeAccount(storeA, 'team-shared', { maxConcurrent: 1 });
    const first = await createKey(storeA, secrets, {
      platform: 'Anthropic',
      namespace: 'team-shared',
    });
    const second = await createKey(storeA, secrets, {
      platform: 'Anthropic',
      namespace: 'team-shared',
    });
    fake.setBehaviour({ chunkGapMs: 100, chunks: 6 });
    const streaming = await call(urlOf(gatewayA), first.value, true);
    expect(streaming.statusCode).toBe(200);
    const refused = await call(urlOf(gatewayB), second.value);
    expect(refused.statusCode).toBe(429);
    expect(await refused.body.text()).toContain('TG_ACCOUNT_CONCURRENCY');
    expect(await streaming.body.text()).toContain('message_stop');
    fake.setBehaviour({});
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = await call(urlOf(gatewayB), second.value);
      status = next.statusCode;
      await next.body.text();
    }
    expect(status).toBe(200);
  });
});

describe('Redis outage', () => {
  const secrets = newSecrets();
  let redis: RedisServer;
  let store: Store;
  let fake: FakeProvider;
  let app: FastifyInstance;
  let base: string;
  let apiKey = '';
  let geminiKey = '';

  async function writePolicies(): Promise<void> {
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    await writeAccount(store, 'team-outage');
    const anthropic = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace: 'team-outage',
    });
    const gemini = await createKey(store, secrets, {
      platform: 'Gemini',
      namespace: 'team-outage',
    });
    apiKey = anthropic.value;
    geminiKey = gemini.value;
  }

  beforeAll(async () => {
    redis = await startRedisServer();
    store = await createStore({ redisUrl: redis.url, prefix: 'tg-test-outage:' });
    fake = await startFakeProvider();
    await writePolicies();
    app = buildGateway(store, secrets);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
    await store.close();
    await redis.stop();
  });

  it('answers 503 in the caller protocol while Redis is down, then recovers', async () => {
    const ok = await call(base, apiKey);
    expect(ok.statusCode).toBe(200);
    await ok.body.text();

    await redis.stop();
    const anthropic = await call(base, apiKey);
    expect(anthropic.statusCode).toBe(503);
    const anthropicBody = (await anthropic.body.json()) as {
      type: string;
      error: { message: string };
    };
    expect(anthropicBody.type).toBe('error');
    expect(anthropicBody.error.message).toContain('TG_STORE_UNAVAILABLE');
    expect(anthropic.headers['retry-after']).toBe('5');

    const gemini = await request(`${base}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': geminiKey },
      body: '{"contents":[]}',
    });
    expect(gemini.statusCode).toBe(503);
    expect(await gemini.body.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
    expect((await app.inject('/readyz')).statusCode).toBe(503);

    redis = await startRedisServer({ port: redis.port });
    // The restarted Redis is empty: the operator would re-project; here the test does.
    let written = false;
    for (let attempt = 0; attempt < 100 && !written; attempt++) {
      try {
        await writePolicies();
        written = true;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(written).toBe(true);
    const recovered = await call(base, apiKey);
    expect(recovered.statusCode).toBe(200);
    await recovered.body.text();
    expect((await app.inject('/readyz')).statusCode).toBe(200);
  });
});
