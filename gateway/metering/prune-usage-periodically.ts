/**
 * Usage retention in the gateway (DESIGN.md 5.10, default 90 days): cheap and bounded. The gateway
 * notes the namespaces it settled requests for; at most once per interval (default hourly) it prunes
 * records and aggregates older than the retention in each namespace seen since the last run. Every
 * replica does this; pruning is idempotent, so the overlap costs only a few store calls.
 */
import type { UsageQueries } from '../../store/usage-records.js';

export interface UsagePrunerOptions {
  store: Pick<UsageQueries, 'pruneUsage'>;
  /** 0 disables pruning. */
  retentionDays: number;
  clock: () => number;
  intervalMs?: number;
  onError: (error: unknown, namespace: string) => void;
}

const DAY_MS = 24 * 3600_000;

export class UsagePruner {
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: UsagePrunerOptions) {}

  noteNamespace(namespace: string): void {
    if (this.options.retentionDays > 0) this.seen.add(namespace);
  }

  start(): void {
    if (this.options.retentionDays <= 0 || this.timer !== undefined) return;
    this.timer = setInterval(() => {
      void this.pruneNow();
    }, this.options.intervalMs ?? 3600_000);
    this.timer.unref();
  }

  /** Prunes every namespace seen since the last run; resolves to the records removed. */
  pruneNow(): Promise<number> {
    this.running ??= this.prune().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async prune(): Promise<number> {
    const namespaces = [...this.seen];
    this.seen.clear();
    const olderThan = this.options.clock() - this.options.retentionDays * DAY_MS;
    let removed = 0;
    for (const namespace of namespaces) {
      try {
        removed += await this.options.store.pruneUsage(namespace, olderThan);
      } catch (error) {
        this.seen.add(namespace);
        this.options.onError(error, namespace);
      }
    }
    return removed;
  }
}
