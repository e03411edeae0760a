/** The store contract against a standalone Redis (the run's shared server, own prefix). */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RedisKeyNames } from '../../../store/redis-key-names.js';
import { COUNTERS_PRESENT_FIELD, createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { StoreUnderTest } from './describe-store-contract.js';
import { describeStoreContract } from './describe-store-contract.js';
import { accountPolicy, settlement, tenant } from './store-fixtures.js';

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
