/**
 * The work queue: object keys (`Kind/ns/name`) processed FIFO by a few workers, never two
 * reconciles of one key at once. A key added while queued is not queued twice; a key added while it
 * is being processed runs once more afterwards. Failures are retried with exponential backoff.
 */
export interface WorkQueueOptions {
  process: (key: string) => Promise<void>;
  workers?: number;
  baseRetryMs?: number;
  maxRetryMs?: number;
  onResult?: (key: string, error: unknown) => void;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly active = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly delayTimers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  private running = 0;
  private paused = true;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WorkQueueOptions) {}

  get depth(): number {
    return this.queue.length;
  }

  add(key: string): void {
    if (this.active.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Adds the key after a delay (expiry, usage refresh); one timer per key, the earliest wins. */
  addAfter(key: string, delayMs: number): void {
    const at = Date.now() + delayMs;
    const existing = this.delayTimers.get(key);
    if (existing !== undefined && existing.at <= at) return;
    clearTimeout(existing?.timer);
    const timer = setTimeout(
      () => {
        this.delayTimers.delete(key);
        this.add(key);
      },
      Math.min(delayMs, 2 ** 31 - 1),
    );
    timer.unref();
    this.delayTimers.set(key, { timer, at });
  }

  /** Starts processing (the queue is created paused, for leader election). */
  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Stops taking new work; resolves when the work in flight is done. */
  async pause(): Promise<void> {
    this.paused = true;
    await this.whenIdle();
  }

  /** Pauses, clears everything queued and every timer. */
  async stop(): Promise<void> {
    await this.pause();
    this.queue.length = 0;
    this.queued.clear();
    this.dirty.clear();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const { timer } of this.delayTimers.values()) clearTimeout(timer);
    this.delayTimers.clear();
  }

  /** Resolves when nothing is queued or running (timers not counted). */
  whenIdle(): Promise<void> {
    if (this.running === 0 && (this.paused || this.queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    const workers = this.options.workers ?? 2;
    while (!this.paused && this.running < workers) {
      const index = this.queue.findIndex((key) => !this.active.has(key));
      if (index < 0) break;
      const [key] = this.queue.splice(index, 1);
      if (key === undefined) break;
      this.queued.delete(key);
      this.active.add(key);
      this.running++;
      void this.work(key);
    }
    if (this.running === 0 && (this.paused || this.queue.length === 0)) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async work(key: string): Promise<void> {
    let failed: unknown = undefined;
    try {
      await this.options.process(key);
      this.failures.delete(key);
    } catch (error) {
      failed = error ?? new Error('reconcile failed');
    }
    this.options.onResult?.(key, failed);
    this.active.delete(key);
    this.running--;
    if (failed !== undefined) this.scheduleRetry(key);
    if (this.dirty.delete(key)) this.add(key);
    this.pump();
  }

  private scheduleRetry(key: string): void {
    const attempt = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, attempt);
    const base = this.options.baseRetryMs ?? 200;
    const delay = Math.min(base * 2 ** (attempt - 1), this.options.maxRetryMs ?? 30_000);
    clearTimeout(this.retryTimers.get(key));
    const timer = setTimeout(() => {
      this.retryTimers.delete(key);
      this.add(key);
    }, delay);
    timer.unref();
    this.retryTimers.set(key, timer);
  }
}
