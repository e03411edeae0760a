/**
 * Stream discovery for the Redis record source: one usage stream per namespace in the store's
 * account index (every namespace that has had an Account; only those can be charged). The index is
 * read at most once per `refreshMs`, so a read round does not cost an extra `SMEMBERS`.
 */
import type { RedisClient } from '../../store/connect-redis-client.js';
import type { RedisKeyNames } from '../../store/redis-key-names.js';

export function createUsageStreamLister(options: {
  client: RedisClient;
  names: RedisKeyNames;
  refreshMs?: number;
  clock?: () => number;
}): () => Promise<string[]> {
  const clock = options.clock ?? Date.now;
  let cached: { streams: string[]; until: number } | null = null;
  return async () => {
    const now = clock();
    if (cached !== null && now < cached.until) return cached.streams;
    const namespaces = await options.client.smembers(options.names.accountIndex);
    const streams = namespaces
      .sort()
      .map((namespace) => options.names.namespace(namespace).usageStream);
    cached = { streams, until: now + (options.refreshMs ?? 1_000) };
    return streams;
  };
}
