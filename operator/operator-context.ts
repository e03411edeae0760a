/** What every reconciler shares: the API, the informer caches, the store, secrets and the queue. */
import type { Logger } from 'pino';
import type { Store } from '../gateway/store/store.js';
import type { KeyHashIndex } from './index-key-hashes.js';
import type { KubernetesApi } from './kubernetes-api.js';
import type { OperatorMetrics } from './operator-metrics.js';
import type { ResourceWatch } from './watch-resources.js';
import type { WorkQueue } from './work-queue.js';

export interface OperatorContext {
  api: KubernetesApi;
  cache: ResourceWatch;
  store: Store;
  queue: WorkQueue;
  metrics: OperatorMetrics;
  logger: Logger;
  /** The operator's own namespace: Upstream Secrets, the Lease. */
  namespace: string;
  pepper: Buffer;
  credentialKey: Buffer;
  now: () => number;
  /** Key hash currently written per ApiKey uid (what this process knows it wrote). */
  writtenKeyHashes: Map<string, string>;
  /** When usage figures were last read, per object uid. */
  usageReadTimes: Map<string, number>;
  usageRefreshMs: number;
  keyHashIndex: KeyHashIndex;
}

export function queueKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

export function parseQueueKey(key: string): { kind: string; namespace: string; name: string } {
  const [kind = '', namespace = '', ...rest] = key.split('/');
  return { kind, namespace, name: rest.join('/') };
}
