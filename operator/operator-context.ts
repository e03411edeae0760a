/** What every reconciler shares: the API, the informer caches, the store, secrets and the queue. */
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { TargetGuard } from './notify/guard-target-url.js';
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
  /** Which notifier URLs are allowed (docs/notifications.md). */
  notifierGuard: TargetGuard;
  now: () => number;
  /** Key hash currently written per ApiKey uid (what this process knows it wrote). */
  writtenKeyHashes: Map<string, string>;
  /** The refresh round in which usage figures were last read, per object uid. */
  usageReadRounds: Map<string, number>;
  /** Refresh rounds started so far: the usage timer opens one per interval. */
  usageRound: { current: number };
  keyHashIndex: KeyHashIndex;
  /**
   * Key documents this process wrote (or found in place) lately: hash -> digest and when. A
   * reconcile that finds the same digest here skips reading the store; entries older than a minute
   * are checked against the store again, so a document lost from the store is written back.
   */
  programmedKeyDigests: Map<string, { digest: string; at: number }>;
  /**
   * Key Secrets this process is creating or created and has not yet seen arrive (`namespace/name`).
   * The reconcile that creates one goes on with the value it generated, so the Secret's arrival
   * needs no second pass of its key (that pass, on a cache without the first pass's status, wrote
   * the status a second time).
   */
  ownSecretCreations: Set<string>;
}

export function queueKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

export function parseQueueKey(key: string): { kind: string; namespace: string; name: string } {
  const [kind = '', namespace = '', ...rest] = key.split('/');
  return { kind, namespace, name: rest.join('/') };
}

/**
 * Usage figures are read at most once per refresh round and at least once in each round the timer
 * opened (it queues every key), so `.status` is at most one interval behind. A guard on the time of
 * the last read would race the timer and skip every other round.
 */
export function usageReadDue(context: OperatorContext, uid: string): boolean {
  const lastRound = context.usageReadRounds.get(uid);
  if (lastRound !== undefined && lastRound >= context.usageRound.current) return false;
  context.usageReadRounds.set(uid, context.usageRound.current);
  return true;
}
