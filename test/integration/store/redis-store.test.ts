/** The store contract against a standalone Redis (the run's shared server, own prefix). */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createRedisStore } from '../../../store/redis-store.js';
import { describeStoreContract } from './describe-store-contract.js';

describeStoreContract('redis standalone', () =>
  createRedisStore({ url: inject('redisUrl'), prefix: `test:store:${randomUUID()}:` }),
);
