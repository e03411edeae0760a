/**
 * Plans and member budgets through the gateway, on memory and Redis: a real call is charged to
 * the plan's windows and the owner's budget (and its record carries the owner), `GET /v1/usage`
 * and the CC Switch usage script show them, the plan's model globs refuse other models, and a
 * stream open when the subscription ends finishes and is billed while the next call is refused.
 */
import { runInNewContext } from 'node:vm';
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOLLGATE_USAGE_SCRIPT } from '../../../console/server/client-config/render-usage-script.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { AccountPolicy, KeyPolicy, Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeUpstreams,
  type StoreKind,
} from '../../support/gateway-fixture.js';
import { waitForRecords } from '../metering/metering-harness.js';

const HOUR = 3_600_000;
const NANO = 1_000_000_000;
const budget = {
  plan: true,
  memberLimits: true,
  timeZone: 'Europe/Berlin',
  planModelsAllow: ['claude-*'],
};

describe.each<StoreKind>(['memory', 'redis'])(
  'plans and member budgets on the %s store',
  (kind) => {
    const secrets = newSecrets();
    let store: Store;
    let fake: FakeProvider;
    let app: FastifyInstance;
    let base: string;

    beforeAll(async () => {
      store = await openStore(kind, inject('redisUrl'));
      fake = await startFakeProvider({ keepRequests: 100 });
      await writeUpstreams(store, { secrets, baseURL: fake.url });
      app = buildGateway(store, secrets);
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await app.close();
      await fake.close();
      await store.close();
    });

    async function subscribed(plan: Partial<NonNullable<AccountPolicy['plan']>> = {}) {
      const namespace = `ns-plan-${Math.random().toString(36).slice(2, 8)}`;
      await store.putAccount(namespace, {
        digest: namespace,
        uid: `acct-${namespace}`,
        namespace,
        creditNano: null,
        maxConcurrent: 0,
        plan: {
          planName: 'pro',
          startTime: Date.now() - HOUR,
          endTime: null,
          limits: { FiveHour: 0, Daily: 5 * NANO, Weekly: 20 * NANO, Monthly: 0 },
          ...plan,
        },
        memberLimits: { Daily: 2 * NANO, Weekly: 0, Monthly: 0 },
      });
      return namespace;
    }

    function key(namespace: string, overrides: Partial<Omit<KeyPolicy, 'group'>> = {}) {
      return createKey(store, secrets, {
        platform: 'Anthropic',
        namespace,
        overrides: { owner: 'alice', budget, ...overrides },
      });
    }

    it('charges a call to the plan and the owner, and shows both in GET /v1/usage', async () => {
      const namespace = await subscribed();
      const created = await key(namespace);
      const client = new Anthropic({ apiKey: created.value, baseURL: base, maxRetries: 0 });
      await client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const [record] = await waitForRecords(
        { store, namespace },
        { keyUid: created.policy.keyUid, count: 1 },
      );
      expect(record?.owner).toBe('alice');
      const cost = record?.costNano ?? 0;
      expect(cost).toBeGreaterThan(0);
      const member = await store.memberCounters(namespace, 'alice', Date.now());
      expect(member.windows[0]?.usedNano).toBe(cost);
      const response = await request(`${base}/v1/usage`, {
        headers: { authorization: `Bearer ${created.value}` },
      });
      const body = (await response.body.json()) as Record<string, unknown>;
      expect(body.subscription).toMatchObject({
        plan: 'pro',
        state: 'Active',
        endTime: null,
        windows: [
          { name: 'Daily', limit: 5, used: cost / NANO },
          { name: 'Weekly', limit: 20, used: cost / NANO },
        ],
      });
      expect(body.member).toMatchObject({
        owner: 'alice',
        reserved: 0,
        windows: [{ name: 'Daily', limit: 2, used: cost / NANO }],
      });
      // Berlin's day ends at 22:00 or 23:00 UTC.
      const dailyReset = new Date(
        String((body.member as { windows: { resetTime: string }[] }).windows[0]?.resetTime),
      );
      expect([22, 23]).toContain(dailyReset.getUTCHours());
      const script = runInNewContext(TOLLGATE_USAGE_SCRIPT) as {
        extractor: (response: unknown) => Record<string, unknown>;
      };
      const shown = script.extractor(body);
      expect(shown.planName).toBe('pro');
      expect(shown.total).toBe(2);
      expect(String(shown.extra)).toContain('plan Daily $');
      expect(String(shown.extra)).toContain('member Daily $');
    });

    it("refuses a model outside the plan's globs", async () => {
      const namespace = await subscribed();
      const created = await key(namespace, {
        budget: { ...budget, planModelsAllow: ['claude-haiku-*'] },
      });
      const response = await request(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': created.value },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          max_tokens: 8,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      expect(response.statusCode).toBe(403);
      expect(await response.body.text()).toContain('TG_MODEL_DENIED');
    });

    it('lets a stream open at the end of the subscription finish and bills it; the next call is refused', async () => {
      const endTime = Date.now() + 600;
      const namespace = await subscribed({ endTime });
      const created = await key(namespace);
      fake.setBehaviour({ chunks: 6, chunkGapMs: 200 });
      try {
        const response = await request(`${base}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': created.value },
          body: JSON.stringify({
            model: 'claude-sonnet-4-5',
            max_tokens: 64,
            stream: true,
            messages: [{ role: 'user', content: 'a long answer' }],
          }),
        });
        expect(response.statusCode).toBe(200);
        const text = await response.body.text();
        expect(Date.now()).toBeGreaterThan(endTime);
        expect(text).toContain('message_stop');
      } finally {
        fake.setBehaviour({});
      }
      const [record] = await waitForRecords(
        { store, namespace },
        { keyUid: created.policy.keyUid, count: 1 },
      );
      expect(record?.status).toBe(200);
      expect(record?.costNano).toBeGreaterThan(0);
      expect((await store.accountCounters(namespace)).spentNano).toBe(record?.costNano);
      const next = await request(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': created.value },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          max_tokens: 8,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      expect(next.statusCode).toBe(403);
      expect(next.headers['retry-after']).toBeUndefined();
      expect(await next.body.text()).toContain('TG_SUBSCRIPTION_EXPIRED');
    });
  },
);
