/**
 * Counters restored from the ledger after Redis lost them: calls settle on a private Redis, the
 * recorder writes the ledger, `FLUSHALL` (while one call is still streaming), the policies are
 * written again as the operator's resync does (the account programmed before): calls are refused
 * with 503 TG_COUNTERS_RESTORING in the caller's protocol until the recorder restored the counters,
 * then every counter equals its value before the flush plus the call that settled after it, and the
 * quota and window limits hold as before.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readNumber } from '../../../ledger/ledger-database.js';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import type { AccountPolicy, KeyCounters } from '../../../store/store.js';
import { WINDOWS } from '../../../store/store.js';
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
const namespace = `team-restore-${randomUUID().slice(0, 8)}`;
const account: AccountPolicy = {
  digest: 'account-1',
  uid: `acct-${namespace}`,
  namespace,
  creditNano: 1_000_000_000_000,
  maxConcurrent: 0,
};
const LIMITS = { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 };

beforeAll(async () => {
  redis = await startRedisServer();
  stack = await startLedgerStack({ store: 'redis', redisUrl: redis.url, ledger: 'postgres' });
  await stack.store.putAccount(namespace, account);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await redis.stop();
});

async function refusalOf(call: Promise<unknown>): Promise<{ status: number; text: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Anthropic.APIError) {
      const headers = error.headers as Headers | undefined;
      const retryAfter = headers?.get('retry-after') ?? '';
      const status = error.status as number | undefined;
      return { status: status ?? 0, text: `${error.message} retry-after=${retryAfter}` };
    }
    throw error;
  }
  return { status: 200, text: '' };
}

const HAIKU = { model: 'claude-haiku-4-5', stream: false };

it('refuses the account until its counters are restored, then they and the limits hold', async () => {
  const { store } = stack;
  const quota = await createKey(store, stack.secrets, {
    platform: 'Anthropic',
    namespace,
    overrides: { limits: { ...LIMITS, quotaNano: 1 } },
  });
  const window = await createKey(store, stack.secrets, {
    platform: 'Anthropic',
    namespace,
    overrides: { limits: { ...LIMITS, fiveHourNano: 1 } },
  });
  const reset = await createKey(store, stack.secrets, { platform: 'Anthropic', namespace });
  const late = await createKey(store, stack.secrets, { platform: 'Anthropic', namespace });
  const keys = [quota, window, reset, late];
  const client = (key: { value: string }) => anthropicClient(stack, key.value);

  stack.startRecorder();
  await callMessages(client(quota), HAIKU);
  await callMessages(client(window), { model: 'claude-sonnet-4-5', stream: true });
  for (let index = 0; index < 3; index++) await callMessages(client(reset), HAIKU);
  expect(await store.resetQuota(namespace, reset.policy.keyUid, 'reset-1')).toBe(true);
  await callMessages(client(reset), { model: 'claude-sonnet-4-5', stream: true });
  expect((await refusalOf(callMessages(client(quota), HAIKU))).text).toContain(
    'TG_QUOTA_EXHAUSTED',
  );
  expect((await refusalOf(callMessages(client(window), HAIKU))).text).toContain(
    'TG_WINDOW_EXHAUSTED',
  );
  const { db } = stack.ledger;
  await waitUntil(async () => (await countRecords(db, namespace)) === 6);
  await waitUntil(async () => (await store.usageStreamPosition(namespace)).waiting === 0);
  await stack.stopRecorder();
  expect(await countRecords(db, namespace)).toBe(6);

  const now = Date.now();
  const before = new Map<string, KeyCounters>();
  for (const key of keys) {
    before.set(key.policy.keyUid, await store.keyCounters(namespace, key.policy.keyUid, now));
  }
  const spentBefore = (await store.accountCounters(namespace)).spentNano;
  expect(before.get(reset.policy.keyUid)?.lastQuotaResetToken).toBe('reset-1');

  // A call still streaming when Redis loses everything; it settles after the flush.
  stack.fake.setBehaviour({ chunks: 6, chunkGapMs: 150 });
  const stream = await client(late).messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 32,
    messages: [{ role: 'user', content: 'slow' }],
    stream: true,
  });
  const events = stream[Symbol.asyncIterator]();
  await events.next();
  const flusher = new Redis(redis.url);
  await flusher.flushall();
  flusher.disconnect();
  let next = await events.next();
  while (next.done !== true) next = await events.next();
  stack.fake.reset();

  // The operator's resync writes the policies again; the Account was programmed before.
  await writeUpstreams(store, { secrets: stack.secrets, baseURL: stack.fake.url });
  await store.putAccount(namespace, account, { programmedBefore: true });
  for (const key of keys) {
    await store.putKeyPolicy(hashKeyValue(stack.secrets.pepper, key.value), key.policy);
  }
  const refused = await refusalOf(callMessages(client(reset), HAIKU));
  expect(refused.status).toBe(503);
  expect(refused.text).toContain('TG_COUNTERS_RESTORING');
  expect(refused.text).toContain('retry-after=1');
  expect(await store.namespacesToRestore({ scan: false })).toEqual([namespace]);

  stack.startRecorder();
  await waitUntil(async () => (await store.namespacesToRestore({ scan: true })).length === 0);
  expect(await countRecords(db, namespace)).toBe(7);
  const [lateRecord] = await db.query(
    `SELECT cost_nano, floor(extract(epoch FROM charged_at) * 1000)::int8 AS charged_at
     FROM usage_records WHERE key_uid = $1`,
    [late.policy.keyUid],
  );
  const lateCost = readNumber(lateRecord?.cost_nano);
  const lateChargedAt = readNumber(lateRecord?.charged_at);
  expect(lateCost).toBeGreaterThan(0);

  const after = Date.now();
  for (const key of [quota, window, reset]) {
    const counters = await store.keyCounters(namespace, key.policy.keyUid, now);
    expect(counters).toEqual(before.get(key.policy.keyUid));
  }
  expect(await store.keyCounters(namespace, late.policy.keyUid, after)).toEqual({
    usedNano: lateCost,
    reservedNano: 0,
    windows: WINDOWS.map((entry) => ({
      name: entry.name,
      usedNano: lateCost,
      resetTime: lateChargedAt + entry.durationMs,
    })),
    lastUsedTime: lateChargedAt,
    lastQuotaResetToken: null,
  });
  expect((await store.accountCounters(namespace)).spentNano).toBe(spentBefore + lateCost);
  const restores = await stack.registry.getSingleMetricAsString(
    'tollgate_recorder_counter_restores_total',
  );
  expect(restores).toMatch(/ 1$/m);

  // The limits hold as before the flush; the reset key is served against its restored quota.
  expect((await refusalOf(callMessages(client(quota), HAIKU))).text).toContain(
    'TG_QUOTA_EXHAUSTED',
  );
  expect((await refusalOf(callMessages(client(window), HAIKU))).text).toContain(
    'TG_WINDOW_EXHAUSTED',
  );
  expect(await callMessages(client(reset), HAIKU)).not.toBe('');
}, 90_000);
