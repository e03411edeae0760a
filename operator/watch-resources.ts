/**
 * Informers (list + watch, an object cache each) for the Tollgate kinds, Secrets and
 * Namespaces. A watch that ends with 410 relists (ListWatch does that); one that fails otherwise is
 * restarted with backoff. Every `resyncMs` each cached object is replayed as a `resync` event.
 */
import {
  CoreV1Api,
  CustomObjectsApi,
  makeInformer,
  type Informer,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type ObjectCache,
  type V1ObjectMeta,
} from '@kubernetes/client-node';
import { API_GROUP, API_VERSION } from '../crds/schema/resources.js';
import { PLURALS, type TollgateKind } from './kubernetes-api.js';

export type SourceName = TollgateKind | 'Secret' | 'Namespace';
export type WatchEventType = 'add' | 'update' | 'delete' | 'resync';

export interface CachedObject extends KubernetesObject {
  metadata: V1ObjectMeta & { name: string; uid: string };
}

export interface WatchResourcesOptions {
  kubeConfig: KubeConfig;
  resyncMs: number;
  onEvent: (source: SourceName, type: WatchEventType, object: CachedObject) => void;
  onError: (source: SourceName, error: unknown) => void;
  /** Called after every (re)list: the first one and each after 410 Gone. */
  onList?: (source: SourceName) => void;
}

type ListFunction = () => Promise<KubernetesListObject<KubernetesObject>>;

const NAMESPACED: Record<TollgateKind, boolean> = {
  ApiKey: true,
  Group: false,
  Upstream: false,
  Account: true,
  Plan: false,
  Notifier: true,
  ClusterNotifier: false,
};

export const SOURCES: readonly SourceName[] = [
  'Namespace',
  'Secret',
  'Upstream',
  'Group',
  'Plan',
  'Account',
  'ApiKey',
  'Notifier',
  'ClusterNotifier',
];

function listFunctions(
  kubeConfig: KubeConfig,
): Record<SourceName, { path: string; list: ListFunction }> {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const customSource = (kind: TollgateKind) => {
    const plural = PLURALS[kind];
    const request = { group: API_GROUP, version: API_VERSION, plural, resourcePlural: plural };
    return {
      path: `/apis/${API_GROUP}/${API_VERSION}/${plural}`,
      list: (): Promise<KubernetesListObject<KubernetesObject>> =>
        NAMESPACED[kind]
          ? (custom.listCustomObjectForAllNamespaces(request) as Promise<
              KubernetesListObject<KubernetesObject>
            >)
          : (custom.listClusterCustomObject(request) as Promise<
              KubernetesListObject<KubernetesObject>
            >),
    };
  };
  return {
    ApiKey: customSource('ApiKey'),
    Group: customSource('Group'),
    Upstream: customSource('Upstream'),
    Account: customSource('Account'),
    Plan: customSource('Plan'),
    Notifier: customSource('Notifier'),
    ClusterNotifier: customSource('ClusterNotifier'),
    Secret: { path: '/api/v1/secrets', list: () => core.listSecretForAllNamespaces() },
    Namespace: { path: '/api/v1/namespaces', list: () => core.listNamespace() },
  };
}

type CachingInformer = Informer<CachedObject> & ObjectCache<CachedObject>;

export class ResourceWatch {
  private readonly informers = new Map<SourceName, CachingInformer>();
  private readonly synced = new Set<SourceName>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private resyncTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: WatchResourcesOptions) {
    const sources = listFunctions(options.kubeConfig);
    for (const source of SOURCES) {
      const { path, list } = sources[source];
      const listAndMark = async (): Promise<KubernetesListObject<CachedObject>> => {
        const result = (await list()) as KubernetesListObject<CachedObject>;
        for (const item of result.items) {
          item.kind ??= source;
        }
        this.synced.add(source);
        options.onList?.(source);
        return result;
      };
      const informer = makeInformer<CachedObject>(options.kubeConfig, path, listAndMark);
      this.wire(source, informer);
      this.informers.set(source, informer);
    }
  }

  /** Resolves once every source has listed at least once (or rejects after `timeoutMs`). */
  async start(timeoutMs = 30_000): Promise<void> {
    this.stopped = false;
    // Not awaited: a watch resolves only when the server sends headers, which some servers delay
    // until the first event. Each source counts as synced once its list has arrived.
    for (const informer of this.informers.values()) void informer.start();
    const deadline = Date.now() + timeoutMs;
    while (this.synced.size < SOURCES.length) {
      if (Date.now() > deadline) throw new Error('timed out listing the watched resources');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.resyncTimer = setInterval(() => {
      this.replay();
    }, this.options.resyncMs);
    this.resyncTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.resyncTimer);
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    await Promise.all([...this.informers.values()].map((informer) => informer.stop()));
  }

  get(source: SourceName, name: string, namespace?: string): CachedObject | undefined {
    return this.informers.get(source)?.get(name, namespace);
  }

  list(source: SourceName, namespace?: string): readonly CachedObject[] {
    return this.informers.get(source)?.list(namespace) ?? [];
  }

  /** Replays every cached object as a `resync` event. */
  replay(): void {
    for (const source of SOURCES) {
      for (const object of this.list(source)) this.options.onEvent(source, 'resync', object);
    }
  }

  private wire(source: SourceName, informer: CachingInformer): void {
    let failures = 0;
    const emit = (type: WatchEventType) => (object: CachedObject) => {
      failures = 0;
      object.kind ??= source;
      this.options.onEvent(source, type, object);
    };
    informer.on('add', emit('add'));
    informer.on('update', emit('update'));
    informer.on('delete', emit('delete'));
    informer.on('error', (error: unknown) => {
      // Stopping aborts the open watches; that is not a failure worth reporting.
      if (this.stopped) return;
      this.options.onError(source, error);
      failures++;
      const delay = Math.min(250 * 2 ** Math.min(failures, 7), 30_000);
      const timer = setTimeout(() => {
        this.restartTimers.delete(timer);
        if (!this.stopped) void informer.start();
      }, delay);
      timer.unref();
      this.restartTimers.add(timer);
    });
  }
}
