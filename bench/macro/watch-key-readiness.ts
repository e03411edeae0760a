/**
 * Follows the ApiKeys of one namespace with a single watch (what `kubectl get -w` does) and counts
 * the keys that exist and the keys whose `Ready` condition is True, with the time each first
 * turned Ready. A watch the server ends is resumed from the last resourceVersion.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';

interface WatchedKey {
  metadata?: { name?: string; resourceVersion?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

export class KeyReadiness {
  readonly seen = new Set<string>();
  readonly readyAt = new Map<string, number>();
  private controller: AbortController | null = null;
  private stopped = false;
  private resourceVersion = '';
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly namespace: string,
    private readonly include: (name: string) => boolean,
  ) {}

  async start(): Promise<void> {
    const path = `/apis/tollgate.dev/v1alpha1/namespaces/${this.namespace}/apikeys`;
    const query: Record<string, string> = {};
    if (this.resourceVersion !== '') query.resourceVersion = this.resourceVersion;
    this.controller = await new Watch(this.kubeConfig).watch(
      path,
      query,
      (phase: string, object: WatchedKey) => {
        this.observe(phase, object);
      },
      () => {
        if (!this.stopped) void this.start();
      },
    );
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }

  get readyCount(): number {
    return this.readyAt.size;
  }

  /** Resolves when `test` holds (checked after every event). */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private observe(phase: string, object: WatchedKey): void {
    const name = object.metadata?.name;
    this.resourceVersion = object.metadata?.resourceVersion ?? this.resourceVersion;
    if (name === undefined || !this.include(name)) return;
    if (phase === 'DELETED') {
      this.seen.delete(name);
      this.readyAt.delete(name);
    } else {
      this.seen.add(name);
      const ready = object.status?.conditions?.some(
        (condition) => condition.type === 'Ready' && condition.status === 'True',
      );
      if (ready === true && !this.readyAt.has(name)) this.readyAt.set(name, performance.now());
    }
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.test()) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }
}
