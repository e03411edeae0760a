/**
 * `GET /v1/usage` (and `/antigravity/v1/usage`) on memory and Redis stores: the calling key's
 * quota, windows, today and total from its counters, never another key's; refused like a model
 * list; and the CC Switch usage script of the generated import link read against it.
 */
import { runInNewContext } from 'node:vm';
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyUsageAnswer } from '../../../gateway/routes/render-key-usage.js';
import { TOLLGATE_USAGE_SCRIPT } from '../../../console/server/client-config/render-usage-script.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { KeyPolicy, Store } from '../../../store/store.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  spend,
  writeAccount,
  writeUpstreams,
  type StoreKind,
} from '../../support/gateway-fixture.js';

const NANO = 1_000_000_000;
let redis: RedisServer;
let fake: FakeProvider;

beforeAll(async () => {
  redis = await startRedisServer();
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake.close();
  await redis.stop();
});

async function getJson(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const response = await request(url, { method: 'GET', headers });
  return { status: response.statusCode, body: await response.body.json() };
}

/** A 200 answer of the usage route. */
async function getUsage(url: string, headers: Record<string, string>): Promise<KeyUsageAnswer> {
  const { status, body } = await getJson(url, headers);
  expect(status).toBe(200);
  return body as KeyUsageAnswer;
}

describe.each<StoreKind>(['memory', 'redis'])('GET /v1/usage on the %s store', (kind) => {
  const secrets = newSecrets();
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  const keys: Record<
    'limited' | 'other' | 'gemini' | 'antigravity',
    { value: string; policy: KeyPolicy }
  > = {} as never;

  beforeAll(async () => {
    store = await openStore(kind, redis.url);
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    await writeAccount(store, 'team-a');
    keys.limited = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace: 'team-a',
      overrides: {
        name: 'alice',
        limits: { quotaNano: 10 * NANO, fiveHourNano: 0, dailyNano: 2 * NANO, sevenDayNano: 0 },
        expiresAt: Date.parse('2099-01-01T00:00:00Z'),
      },
    });
    keys.other = await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-a' });
    keys.gemini = await createKey(store, secrets, { platform: 'Gemini', namespace: 'team-a' });
    keys.antigravity = await createKey(store, secrets, {
      platform: 'Antigravity',
      namespace: 'team-a',
    });
    await spend(store, keys.limited.policy, 1.5 * NANO);
    await spend(store, keys.other.policy, 0.25 * NANO);
    app = buildGateway(store, secrets);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it("answers the calling key's quota, windows, today and total", async () => {
    const before = Date.now();
    const body = await getUsage(`${base}/v1/usage`, {
      authorization: `Bearer ${keys.limited.value}`,
    });
    const { windows, lastUsedTime, ...rest } = body;
    expect(rest).toEqual({
      object: 'usage',
      key: { name: 'alice', namespace: 'team-a', group: 'anthropic-group', platform: 'Anthropic' },
      unit: 'USD',
      quota: { limit: 10, used: 1.5, reserved: 0, remaining: 8.5 },
      today: { used: 1.5 },
      total: { used: 1.5 },
      expiresTime: '2099-01-01T00:00:00.000Z',
    });
    expect(typeof lastUsedTime).toBe('string');
    expect(windows.map((w) => [w.name, w.limit, w.used, w.remaining])).toEqual([
      ['FiveHour', null, 1.5, null],
      ['Daily', 2, 1.5, 0.5],
      ['SevenDay', null, 1.5, null],
    ]);
    const dailyReset = Date.parse(String(windows[1]?.resetTime));
    expect(dailyReset).toBeGreaterThan(before);
    expect(dailyReset).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
  });

  it("never shows another key's figures: each key reads its own counters", async () => {
    const body = await getUsage(`${base}/v1/usage`, { 'x-api-key': keys.other.value });
    expect(body.key.name).toBe(keys.other.policy.name);
    expect(body.quota).toEqual({ limit: null, used: 0.25, reserved: 0, remaining: null });
    expect(body.total).toEqual({ used: 0.25 });
    const fresh = await getUsage(`${base}/v1/usage`, { 'x-goog-api-key': keys.gemini.value });
    expect(fresh.quota).toEqual({ limit: null, used: 0, reserved: 0, remaining: null });
    expect(fresh.windows.map((w) => w.resetTime)).toEqual([null, null, null]);
    expect(fresh.lastUsedTime).toBeNull();
  });

  it('moves with a real call through the gateway (Anthropic SDK)', async () => {
    const read = () => getUsage(`${base}/v1/usage`, { 'x-api-key': keys.other.value });
    const before = await read();
    const client = new Anthropic({ apiKey: keys.other.value, baseURL: base, maxRetries: 0 });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    // The call settles when its response closes: read until the counters show it.
    let after = before;
    for (let attempt = 0; attempt < 50 && after.total.used === before.total.used; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await read();
    }
    expect(after.total.used).toBeGreaterThan(before.total.used);
    expect(after.quota.reserved).toBe(0);
  });

  it('serves Antigravity keys under /antigravity and refuses the other platforms there', async () => {
    const own = await getUsage(`${base}/antigravity/v1/usage`, {
      authorization: `Bearer ${keys.antigravity.value}`,
    });
    expect(own.key.platform).toBe('Antigravity');
    const wrong = await getJson(`${base}/antigravity/v1/usage`, {
      authorization: `Bearer ${keys.limited.value}`,
    });
    expect(wrong.status).toBe(403);
    expect(JSON.stringify(wrong.body)).toContain('TG_PLATFORM_MISMATCH');
  });

  it('refuses a missing or unknown key with 401, in the shape the headers suggest', async () => {
    const missing = await getJson(`${base}/v1/usage`, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: { code: 'TG_KEY_MISSING' } });
    const unknown = await getJson(`${base}/v1/usage`, {
      'x-api-key': 'sk-tg-unknown',
      'anthropic-version': '2023-06-01',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('feeds the generated CC Switch usage script: request filled in, extractor on the answer', async () => {
    const script = runInNewContext(TOLLGATE_USAGE_SCRIPT) as {
      request: { url: string; method: string; headers: Record<string, string> };
      extractor: (response: unknown) => Record<string, unknown>;
    };
    const fill = (text: string) =>
      text.replaceAll('{{baseUrl}}', base).replaceAll('{{apiKey}}', keys.limited.value);
    const headers = Object.fromEntries(
      Object.entries(script.request.headers).map(([name, value]) => [name, fill(value)]),
    );
    const { status, body } = await getJson(fill(script.request.url), headers);
    expect(status).toBe(200);
    expect({ ...script.extractor(body) }).toEqual({
      isValid: true,
      planName: 'anthropic-group',
      used: 1.5,
      remaining: 8.5,
      total: 10,
      unit: 'USD',
      extra: 'today $1.50, total $1.50',
    });
    const refused = await getJson(fill(script.request.url), {
      authorization: 'Bearer sk-tg-unknown',
    });
    expect(script.extractor(refused.body).isValid).toBe(false);
  });
});
