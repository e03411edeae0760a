/**
 * Every refusal rule on every platform path with every header variant, on both stores, plus
 * combined conditions (the first rule in the seed's order wins). Each case gets a fresh key.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../gateway/errors/error-catalogue.js';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  newSecrets,
  openStore,
  writeUpstreams,
  type StoreKind,
} from '../../support/gateway-fixture.js';
import { routes, type RouteCase } from './refusal-routes.js';
import { accountKey, expectShape, rules, type RuleContext } from './refusal-rules.js';
import { budgetRules } from './budget-refusal-rules.js';

describe.each<StoreKind>(['memory', 'redis'])('admission refusals on the %s store', (kind) => {
  let store: Store;
  let fake: FakeProvider;
  let app: FastifyInstance;
  const secrets = newSecrets();

  beforeAll(async () => {
    store = await openStore(kind, inject('redisUrl'));
    fake = await startFakeProvider({ keepRequests: 1_000 });
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    app = buildGateway(store, secrets);
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
    await store.close();
  });

  const contextFor = (route: RouteCase): RuleContext => ({
    store,
    secrets,
    platform: route.platforms[0] ?? 'Anthropic',
    otherPlatform: route.platforms.includes('Gemini') ? 'Anthropic' : 'Gemini',
  });

  describe.each(routes)('$name', (route) => {
    it('admits a valid key', async () => {
      const created = await accountKey(contextFor(route));
      const response = await app.inject(route.request(created.value));
      expect(response.statusCode, response.body).toBe(route.okStatus);
      if (route.okStatus === 501)
        expectShape(route.shape, response.json(), route.okCode ?? 'TG_NOT_IMPLEMENTED', 501);
    });

    const applicable = [...rules, ...budgetRules].filter(
      (rule) => route.forwarded || !rule.forwardedOnly,
    );
    it.each(applicable)('$name -> $status $code', async (rule) => {
      const key = await rule.key(contextFor(route));
      const response = await app.inject(route.request(key));
      expect(response.statusCode, response.body).toBe(rule.status);
      expectShape(route.shape, response.json(), rule.code, rule.status);
      // Every retryable refusal says when to retry; quota and balance refusals do not.
      if (ERROR_CATALOGUE[rule.code as ErrorCode].retryable) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      } else {
        expect(response.headers['retry-after']).toBeUndefined();
      }
      if (rule.code === 'TG_PLATFORM_MISMATCH') {
        expect(response.body).toMatch(/call paths under \//);
      }
    });
  });

  it('does not forward refused requests and forwards admitted ones once', async () => {
    fake.reset();
    const context = contextFor(routes[0]!);
    const refused = await accountKey(context, { overrides: { suspended: true } });
    await app.inject(routes[0]!.request(refused.value));
    expect(fake.requests).toHaveLength(0);
    const admitted = await accountKey(context);
    await app.inject(routes[0]!.request(admitted.value));
    expect(fake.requests).toHaveLength(1);
  });
});
