/**
 * Plan windows and member budgets restored from the ledger after Redis lost them: calls of an
 * owned key on a subscribed account settle on a private Redis, the recorder writes the ledger,
 * `FLUSHALL`, the policies are written again as the operator's resync does; once the recorder
 * restored the namespace, the plan's windows and the owner's budget equal their values before the
 * flush, and the member budget refuses as before.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import type { AccountPolicy } from '../../../store/store.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { createKey, writeUpstreams } from '../../support/gateway-fixture.js';
import {
  anthropicClient,
  callMessages,
  countRecords,
  startLedgerStack,
  waitUntil,
  type LedgerStack,
} from './ledger-harness.js';

let redis: RedisServer;
let stack: LedgerStack;
const namespace = `team-budget-restore-${randomUUID().slice(0, 8)}`;
const account: AccountPolicy = {
  digest: 'account-budget',
  uid: `acct-${namespace}`,
  namespace,
  creditNano: null,
  maxConcurrent: 0,
  plan: {
    planName: 'pro',
    startTime: Date.now() - 3_600_000,
    endTime: null,
    limits: { FiveHour: 0, Daily: 1_000_000_000_000, Weekly: 0, Monthly: 1_000_000_000_000 },
  },
  memberLimits: { Daily: 0, Weekly: 0, Monthly: 1_000_000_000_000 },
};
const budget = { plan: true, memberLimits: true, timeZone: null, planModelsAllow: null };
const HAIKU = { model: 'claude-haiku-4-5', stream: false };

beforeAll(async () => {
  redis = await startRedisServer();
  stack = await startLedgerStack({ store: 'redis', redisUrl: redis.url, ledger: 'postgres' });
  await stack.store.putAccount(namespace, account);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await redis.stop();
});

it('rebuilds the plan windows and the member budget, which then refuse as before', async () => {
  const { store } = stack;
  const keys = await Promise.all(
    ['alice', 'alice', 'bob'].map((owner) =>
      createKey(store, stack.secrets, {
        platform: 'Anthropic',
        namespace,
        overrides: { owner, budget },
      }),
    ),
  );
  stack.startRecorder();
  for (const key of keys) await callMessages(anthropicClient(stack, key.value), HAIKU);
  await callMessages(anthropicClient(stack, keys[0]!.value), HAIKU);
  const { db } = stack.ledger;
  await waitUntil(async () => (await countRecords(db, namespace)) === 4);
  await waitUntil(async () => (await store.usageStreamPosition(namespace)).waiting === 0);
  await stack.stopRecorder();

  const now = Date.now();
  const planBefore = (await store.accountCounters(namespace)).planWindows;
  const aliceBefore = await store.memberCounters(namespace, 'alice', now);
  const bobBefore = await store.memberCounters(namespace, 'bob', now);
  expect(aliceBefore.windows[2]?.usedNano).toBeGreaterThan(bobBefore.windows[2]?.usedNano ?? 0);

  const flusher = new Redis(redis.url);
  await flusher.flushall();
  flusher.disconnect();
  await writeUpstreams(store, { secrets: stack.secrets, baseURL: stack.fake.url });
  await store.putAccount(namespace, account, { programmedBefore: true });
  for (const key of keys) {
    await store.putKeyPolicy(hashKeyValue(stack.secrets.pepper, key.value), key.policy);
  }
  stack.startRecorder();
  await waitUntil(async () => (await store.namespacesToRestore({ scan: true })).length === 0);

  expect((await store.accountCounters(namespace)).planWindows).toEqual(planBefore);
  expect(await store.memberCounters(namespace, 'alice', now)).toEqual(aliceBefore);
  expect(await store.memberCounters(namespace, 'bob', now)).toEqual(bobBefore);

  // Alice's monthly budget set to what she spent: her keys are refused, Bob's are served.
  const spent = aliceBefore.windows[2]?.usedNano ?? 0;
  await store.putAccount(namespace, {
    ...account,
    digest: 'account-budget-2',
    memberLimits: { Daily: 0, Weekly: 0, Monthly: spent },
  });
  try {
    await callMessages(anthropicClient(stack, keys[1]!.value), HAIKU);
    expect.unreachable('alice was admitted past her budget');
  } catch (error) {
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(429);
    expect((error as Error).message).toContain('TG_MEMBER_BUDGET_EXHAUSTED');
  }
  expect(await callMessages(anthropicClient(stack, keys[2]!.value), HAIKU)).not.toBe('');
}, 90_000);
