/**
 * "Unknown because restoring" versus "unknown because wrong", on both stores: until the operator
 * has written the policy cache's generation marker (its first full program, or the program after
 * the store lost its data), a key, account or upstream the store does not hold is refused with 503
 * TG_POLICY_RESTORING and `retry-after: 1` in the caller's protocol; once the marker is there, a
 * wrong key is 401 TG_KEY_UNKNOWN again, a namespace without an account 403 TG_NO_ACCOUNT and a
 * group without upstreams 503 TG_NO_UPSTREAM. A key the store holds is served either way.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  markPoliciesProgrammed,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
  type StoreKind,
} from '../../support/gateway-fixture.js';
import { routes } from './refusal-routes.js';
import { expectShape } from './refusal-rules.js';

const WRONG_KEY = `sk-tg-${'W'.repeat(40)}`;
const MESSAGES = routes[0];

describe.each<StoreKind>(['memory', 'redis'])('policy restoring on the %s store', (kind) => {
  let store: Store;
  let fake: FakeProvider;
  let app: FastifyInstance;
  const secrets = newSecrets();
  const keys = { valid: '', noAccount: '', noUpstream: '' };

  beforeAll(async () => {
    store = await openStore(kind, inject('redisUrl'));
    fake = await startFakeProvider();
    // Everything the operator would write, except the marker that ends its program.
    await writeUpstreams(store, { secrets, baseURL: fake.url, programmed: false });
    await writeAccount(store, 'team-restoring');
    keys.valid = (
      await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-restoring' })
    ).value;
    keys.noAccount = (
      await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-no-account' })
    ).value;
    keys.noUpstream = (
      await createKey(store, secrets, {
        platform: 'Anthropic',
        namespace: 'team-restoring',
        upstreams: [{ name: 'not-written-yet', weight: 1, priority: 0 }],
      })
    ).value;
    app = buildGateway(store, secrets);
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
    await store.close();
  });

  async function refusal(key: string): Promise<{ status: number; code: string | undefined }> {
    if (MESSAGES === undefined) throw new Error('no route');
    const response = await app.inject(MESSAGES.request(key));
    return {
      status: response.statusCode,
      code: /\[(TG_[A-Z_]+)\]/.exec(response.body)?.[1],
    };
  }

  describe('before the marker', () => {
    it.each(routes)(
      '$name: a wrong key is 503 TG_POLICY_RESTORING, retry-after 1',
      async (route) => {
        const response = await app.inject(route.request(WRONG_KEY));
        expect(response.statusCode, response.body).toBe(503);
        expect(response.headers['retry-after']).toBe('1');
        expectShape(route.shape, response.json(), 'TG_POLICY_RESTORING', 503);
      },
    );

    it('serves a key the store holds', async () => {
      if (MESSAGES === undefined) throw new Error('no route');
      const response = await app.inject(MESSAGES.request(keys.valid));
      expect(response.statusCode, response.body).toBe(200);
    });

    it('refuses a missing account or upstream as restoring', async () => {
      expect(await refusal(keys.noAccount)).toEqual({ status: 503, code: 'TG_POLICY_RESTORING' });
      expect(await refusal(keys.noUpstream)).toEqual({ status: 503, code: 'TG_POLICY_RESTORING' });
    });

    it('counts the refusals by their reason (every platform)', async () => {
      const metric = await app.gateway.registry.getSingleMetricAsString('tollgate_refusals_total');
      const counted = metric
        .split('\n')
        .filter((line) => line.includes('reason="TG_POLICY_RESTORING"'))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
      expect(counted).toBe(routes.length + 2);
    });
  });

  describe('after the marker', () => {
    beforeAll(async () => {
      await markPoliciesProgrammed(store);
    });

    it.each(routes)('$name: a wrong key is 401 TG_KEY_UNKNOWN', async (route) => {
      const response = await app.inject(route.request(WRONG_KEY));
      expect(response.statusCode, response.body).toBe(401);
      expectShape(route.shape, response.json(), 'TG_KEY_UNKNOWN', 401);
    });

    it('refuses a missing account or upstream as missing', async () => {
      expect(await refusal(keys.noAccount)).toEqual({ status: 403, code: 'TG_NO_ACCOUNT' });
      // The upstream was found missing a moment ago; it is read again after a second at most.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await refusal(keys.noUpstream)).toEqual({ status: 503, code: 'TG_NO_UPSTREAM' });
    });
  });
});
