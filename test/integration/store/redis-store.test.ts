/** The store contract against a standalone Redis (the run's shared server, own prefix). */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RedisKeyNames } from '../../../store/redis-key-names.js';
import { COUNTERS_PRESENT_FIELD, createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
import { startRedisServer } from '../../support/redis-server.js';
import type { StoreUnderTest } from './store-under-test.js';
import { describeStoreContract } from './describe-store-contract.js';
import { capturedCall, describeCaptureBound } from './describe-capture-contract.js';
import type { LeaseCharge } from '../../../store/store.js';
import { accountPolicy, admitChargedLease, settlement, tenant } from './store-fixtures.js';

const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

/** A store on its own prefix, with a plain client and the key names to reach its data. */
async function standalone(): Promise<{
  underTest: StoreUnderTest;
  client: Redis;
  names: RedisKeyNames;
}> {
  const prefix = `test:store:${randomUUID()}:`;
  const store = await createRedisStore({ url: inject('redisUrl'), prefix });
  const client = new Redis(inject('redisUrl'));
  clients.push(client);
  const names = createRedisKeyNames(prefix);
  const underTest: StoreUnderTest = {
    store,
    dropCountersMarker: async (namespace) => {
      await client.hdel(names.namespace(namespace).accountCounters, COUNTERS_PRESENT_FIELD);
      return underTest;
    },
  };
  return { underTest, client, names };
}

describeStoreContract('redis standalone', async () => (await standalone()).underTest);
describeCaptureBound('redis', ({ queueLimit, queueBytes }) =>
  createRedisStore({
    url: inject('redisUrl'),
    prefix: `test:store:${randomUUID()}:`,
    captureQueueLimit: queueLimit,
    ...(queueBytes === undefined ? {} : { captureQueueBytes: queueBytes }),
  }),
);

describe('redis script errors', () => {
  it('leave the store without the command and its args (a captured body never reaches a log)', async () => {
    const { underTest, client, names } = await standalone();
    const { store } = underTest;
    await client.set(names.captureStream, 'not a stream');
    const marker = `body-marker-${randomUUID()}`;
    const call = capturedCall();
    call.request = { ...call.request!, text: `{"content":"${marker}"}` };
    const error = await store.handOffCapture(call).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^WRONGTYPE/);
    expect(error).not.toHaveProperty('command');
    expect(error).not.toHaveProperty('args');
    expect(inspect(error, { depth: null })).not.toContain(marker);
    expect(JSON.stringify(error)).not.toContain(marker);
    await store.close();
  });
});

describe('redis capture hand-off keys', () => {
  it('keep the bytes of each entry and their sum, and leave nothing once all are acknowledged', async () => {
    const { underTest, client, names } = await standalone();
    const { store } = underTest;
    const calls = [capturedCall(), capturedCall({ response: null, request: null })];
    for (const call of calls) await store.handOffCapture(call);
    const sizes = calls.map((call) => Buffer.byteLength(JSON.stringify(call)));
    const pending = await store.pendingCaptures(10);
    expect(await client.hmget(names.captureSizes, ...pending.map((entry) => entry.id))).toEqual(
      sizes.map(String),
    );
    expect(await client.get(names.captureBytes)).toBe(String(sizes[0]! + sizes[1]!));
    await store.ackCaptures([pending[0]!.id]);
    expect(await client.get(names.captureBytes)).toBe(String(sizes[1]));
    await store.ackCaptures([pending[1]!.id]);
    expect(await client.xlen(names.captureStream)).toBe(0);
    expect(await client.exists(names.captureBytes, names.captureSizes)).toBe(0);
    await store.close();
  });
});

describe('redis counters of a release before the present marker', () => {
  it('putAccount marks them whole instead of queueing them for a restore', async () => {
    const { underTest, client, names } = await standalone();
    const { store } = underTest;
    const who = await tenant(store);
    await store.settle(settlement({ ...who, now: Date.now() }, { costNano: 700 }));
    await underTest.dropCountersMarker(who.namespace);
    await store.putAccount(who.namespace, accountPolicy(who.namespace), { programmedBefore: true });
    expect(await client.sismember(names.restoreQueue, who.namespace)).toBe(0);
    const counters = names.namespace(who.namespace).accountCounters;
    expect(await client.hmget(counters, COUNTERS_PRESENT_FIELD, 'spent')).toEqual(['1', '700']);
    await store.close();
  });
});

describe('redis lease progress', () => {
  it('leaves nothing behind once the request is settled or its lease charged', async () => {
    const { underTest, client, names } = await standalone();
    const { store } = underTest;
    const who = await tenant(store);
    const charges = names.namespace(who.namespace).inFlightCharge;
    const now = Date.now();
    const renew = async (requestId: string, record: LeaseCharge['record']) => {
      const progress = { record, deliveredNano: 100, chargeNano: 200 };
      await store.renewLease([{ ...who, requestId, progress }], now + 500);
    };
    const settled = await admitChargedLease(store, { ...who, now }, 900);
    const expired = await admitChargedLease(store, { ...who, now }, 900);
    await renew(settled.requestId, settled.charge.record);
    await renew(expired.requestId, expired.charge.record);
    expect(await client.hlen(charges)).toBe(4);
    const done = settlement(
      { ...who, now: now + 10 },
      { requestId: settled.requestId, costNano: 300 },
    );
    expect((await store.settle(done)).applied).toBe(true);
    expect(await client.hkeys(charges)).toEqual(
      expect.arrayContaining([expired.requestId, `${expired.requestId}:progress`]),
    );
    expect(await client.hlen(charges)).toBe(2);
    // A renewal after the settlement writes no progress.
    await renew(settled.requestId, settled.charge.record);
    expect(await client.hlen(charges)).toBe(2);
    await store.sweepExpiredLeases({ now: now + 1_000, claimMs: 1 });
    expect(await client.hlen(charges)).toBe(0);
    const records = await store.pendingUsageRecords(who.namespace, 10);
    expect(records.map((record) => record.costNano)).toEqual([300, 200]);
    await store.close();
  });
});

describe('redis policy marker', () => {
  it('a program interrupted by the loss of the data commits nothing', async () => {
    const { underTest, client, names } = await standalone();
    const { store } = underTest;
    await store.beginPolicyReload('interrupted');
    // What a flush does to this prefix's marker keys.
    await client.del(names.policyReload, names.policyMarker);
    expect(await store.commitPolicyReload('interrupted')).toBe(false);
    expect(await store.readPolicyMarker()).toBeNull();
    await store.close();
  });

  it('tells its listeners when Redis comes back, empty after a restart without persistence', async () => {
    const server = await startRedisServer();
    const store = await createRedisStore({ url: server.url, prefix: 'tg:' });
    try {
      await store.beginPolicyReload('before-restart');
      expect(await store.commitPolicyReload('before-restart')).toBe(true);
      let reconnections = 0;
      const unsubscribe = store.onReconnect(() => {
        reconnections += 1;
      });
      await server.stop();
      const again = await startRedisServer({ port: server.port });
      try {
        const deadline = Date.now() + 10_000;
        while (reconnections === 0 && Date.now() < deadline) await sleep(50);
        expect(reconnections).toBe(1);
        expect(await store.readPolicyMarker()).toBeNull();
        unsubscribe();
      } finally {
        await again.stop();
      }
    } finally {
      await store.close();
    }
  }, 30_000);
});
