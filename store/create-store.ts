/** Picks the store: Redis when a URL or cluster nodes are configured, memory otherwise. */
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import type { UsageRecordQueue } from './memory-state.js';
import type { Store } from './store.js';

export interface CreateStoreOptions {
  redisUrl?: string;
  redisClusterNodes?: readonly string[];
  /** Data folder for the memory store's file (local mode). */
  dataDir?: string;
  /** Key prefix in Redis (default `tg:`). */
  prefix?: string;
  /** Where the memory store appends settled records (the in-process recorder's queue). */
  recordQueue?: UsageRecordQueue;
  /** How long a settled request id is remembered (settled-markers.ts). */
  settlementMarkerTtlMs?: number;
  /** Captured bodies kept waiting for the recorder at most (store/captured-call.ts). */
  captureQueueLimit?: number;
  /** Bytes of captured bodies' JSON kept waiting for the recorder at most. */
  captureQueueBytes?: number;
}

export function createStore(options: CreateStoreOptions): Promise<Store> {
  const clusterNodes = options.redisClusterNodes ?? [];
  const markerTtl =
    options.settlementMarkerTtlMs === undefined
      ? {}
      : { settlementMarkerTtlMs: options.settlementMarkerTtlMs };
  const captureLimit = {
    ...(options.captureQueueLimit === undefined
      ? {}
      : { captureQueueLimit: options.captureQueueLimit }),
    ...(options.captureQueueBytes === undefined
      ? {}
      : { captureQueueBytes: options.captureQueueBytes }),
  };
  if (clusterNodes.length > 0 || (options.redisUrl !== undefined && options.redisUrl !== '')) {
    return createRedisStore({
      ...(clusterNodes.length > 0 ? { clusterNodes } : {}),
      ...(options.redisUrl !== undefined ? { url: options.redisUrl } : {}),
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      ...markerTtl,
      ...captureLimit,
    });
  }
  return createMemoryStore({
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    ...(options.recordQueue !== undefined ? { recordQueue: options.recordQueue } : {}),
    ...markerTtl,
    ...captureLimit,
  });
}
