/** The store contract against a local 3-master Redis Cluster started for this file. */
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { COUNTERS_PRESENT_FIELD, createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { Store } from '../../../store/store.js';
import type { StoreUnderTest } from './store-under-test.js';
import { describeStoreContract } from './describe-store-contract.js';
import type { RedisCluster } from './start-redis-cluster.js';
import { startRedisCluster } from './start-redis-cluster.js';

let cluster: RedisCluster | null = null;
const stores: Store[] = [];
const clients: Cluster[] = [];

async function clusterStore(): Promise<Store> {
  cluster ??= await startRedisCluster();
  const store = await createRedisStore({
    clusterNodes: cluster.nodes,
    prefix: `test:cluster:${randomUUID()}:`,
    readyTimeoutMs: 10_000,
  });
  stores.push(store);
  return store;
}

/** A cluster store, and the marker removed through a client of its own. */
async function clusterStoreUnderTest(): Promise<StoreUnderTest> {
  cluster ??= await startRedisCluster();
  const prefix = `test:cluster:${randomUUID()}:`;
  const store = await createRedisStore({
    clusterNodes: cluster.nodes,
    prefix,
    readyTimeoutMs: 10_000,
  });
  stores.push(store);
  const client = new Cluster(
    cluster.nodes.map((node) => {
      const [host, port] = node.split(':');
      return { host: host ?? '127.0.0.1', port: Number(port) };
    }),
  );
  clients.push(client);
  const names = createRedisKeyNames(prefix);
  const underTest: StoreUnderTest = {
    store,
    dropCountersMarker: async (namespace) => {
      await client.hdel(names.namespace(namespace).accountCounters, COUNTERS_PRESENT_FIELD);
      return underTest;
    },
  };
  return underTest;
}

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

describeStoreContract('redis cluster (3 masters)', clusterStoreUnderTest);

describe('redis cluster specifics', () => {
  it('lists key digests from one index while the policies spread over the slots', async () => {
    const store = await clusterStore();
    const hashes = Array.from({ length: 30 }, () => randomUUID().replaceAll('-', ''));
    for (const hash of hashes) {
      await store.putKeyPolicy(hash, {
        digest: `digest-${hash}`,
        keyUid: hash,
        namespace: 'team',
        name: 'k',
        state: 'NoGroup',
        suspended: false,
        expiresAt: null,
        limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
        sourceRanges: { allow: [], deny: [] },
        maxConcurrent: 0,
        modelsAllow: null,
        group: null,
      });
    }
    const digests = await store.listKeyPolicyDigests();
    for (const hash of hashes) expect(digests.get(hash)).toBe(`digest-${hash}`);
    for (const hash of hashes) expect((await store.getKeyPolicy(hash))?.keyUid).toBe(hash);
  });
});
