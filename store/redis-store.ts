/**
 * The Redis store: policy cache, counters and the usage streams on ioredis, standalone or Cluster.
 * Key layout and scripts: docs/store.md.
 */
import type { RedisClientOptions } from './connect-redis-client.js';
import { connectRedisClient, guardRedis, waitUntilReady } from './connect-redis-client.js';
import { defineStoreScripts } from './define-store-scripts.js';
import { createRedisKeyNames } from './redis-key-names.js';
import { createRedisPolicyStore } from './redis-policy-store.js';
import { createRedisSpendStore } from './redis-spend-store.js';
import { createRedisCounterRestore } from './redis-counter-restore.js';
import { createRedisUpstreamHealth } from './redis-upstream-health.js';
import { createRedisNotificationDeliveries } from './redis-notification-deliveries.js';
import { LEASE_CHARGE_MARKER_TTL_MS, MIN_SETTLEMENT_MARKER_TTL_MS } from './settled-markers.js';
import { createRedisCaptureStore } from './redis-capture-store.js';
import { DEFAULT_CAPTURE_QUEUE_BYTES, DEFAULT_CAPTURE_QUEUE_LIMIT } from './captured-call.js';
import { pendingRecordsOf } from './read-pending-usage-records.js';
import type { Store } from './store.js';

export interface RedisStoreOptions extends RedisClientOptions {
  /** Prefix of every key name (default `tg:`); tests use a unique one each. */
  prefix?: string;
  /** How long a settled request id is remembered (settled-markers.ts; default 15 minutes). */
  settlementMarkerTtlMs?: number;
  /** How long creation waits for the first connection before returning anyway (default 2 s). */
  readyTimeoutMs?: number;
  /** Captured bodies kept waiting for the recorder at most (default 10 000; oldest dropped). */
  captureQueueLimit?: number;
  /** Bytes of captured bodies' JSON kept waiting at most (default 64 MiB; oldest dropped). */
  captureQueueBytes?: number;
}

export async function createRedisStore(options: RedisStoreOptions): Promise<Store> {
  const client = connectRedisClient(options);
  // Errors are reported through the calls (StoreUnavailableError); the event must not crash.
  client.on('error', () => undefined);
  const names = createRedisKeyNames(options.prefix ?? 'tg:');
  const runScript = defineStoreScripts(client);
  await waitUntilReady(client, options.readyTimeoutMs ?? 2_000);
  let closed = false;
  // Every connection made from now on is a reconnection (a restarted Redis may be empty).
  const reconnectListeners = new Set<() => void>();
  client.on('ready', () => {
    for (const listener of reconnectListeners) listener();
  });
  return {
    kind: 'redis',
    ...createRedisPolicyStore(client, names, runScript),
    ...createRedisSpendStore({
      client,
      names,
      runScript,
      leaseChargeMarkerTtlMs: LEASE_CHARGE_MARKER_TTL_MS,
      settlementMarkerTtlMs: options.settlementMarkerTtlMs ?? MIN_SETTLEMENT_MARKER_TTL_MS,
    }),
    ...createRedisCounterRestore({ client, names, runScript }),
    ...createRedisUpstreamHealth({ client, names, runScript }),
    ...createRedisCaptureStore({
      client,
      names,
      runScript,
      queueLimit: options.captureQueueLimit ?? DEFAULT_CAPTURE_QUEUE_LIMIT,
      queueBytes: options.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES,
    }),
    ...createRedisNotificationDeliveries(client, options.prefix ?? 'tg:'),
    pendingUsageRecords: (namespace, limit) =>
      guardRedis(async () => {
        const stream = names.namespace(namespace).usageStream;
        const reply = await client.xrange(stream, '-', '+', 'COUNT', limit);
        return pendingRecordsOf(reply);
      }),
    ping: () =>
      guardRedis(async () => {
        await client.ping();
      }),
    onReconnect: (listener) => {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    close: async () => {
      if (closed) return;
      reconnectListeners.clear();
      closed = true;
      await client.quit().catch(() => {
        client.disconnect();
      });
    },
  };
}
