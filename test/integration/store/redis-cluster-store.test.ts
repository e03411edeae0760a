/** The store contract against a local 3-master Redis Cluster started for this file. */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../../store/redis-store.js';
import type { Store } from '../../../store/store.js';
import { describeStoreContract } from './describe-store-contract.js';
import type { RedisCluster } from './start-redis-cluster.js';
import { startRedisCluster } from './start-redis-cluster.js';

let cluster: RedisCluster | null = null;
const stores: Store[] = [];

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

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await cluster?.stop();
});

describeStoreContract('redis cluster (3 masters)', clusterStore);

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
