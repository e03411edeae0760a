/**
 * The work queue: object keys (`Kind/ns/name`) processed by a pool of workers, never two
 * reconciles of one key at once. Two FIFO lanes: urgent (a single edit or deletion someone waits
 * for) is always served first and has workers of its own, bulk (creations, resyncs, fan-outs) takes
 * the rest, so one suspension is not stuck behind an import of thousands of keys. A key added while
 * queued is not queued twice (an urgent add moves it up); a key added while it is being processed
 * runs once more afterwards. Failures are retried with exponential backoff.
 */
export interface WorkQueueOptions {
  process: (key: string) => Promise<void>;
  workers?: number;
  /** Extra workers only urgent keys may use, so they never wait for a bulk to drain. */
  urgentWorkers?: number;
  baseRetryMs?: number;
  maxRetryMs?: number;
  onResult?: (key: string, error: unknown) => void;
}

export interface AddOptions {
  /** A single change someone waits for (an edit, a deletion): served before the bulk lane. */
  urgent?: boolean;
}

const URGENT = 1;
const BULK = 0;

/** A FIFO array with a moving head, so taking from the front is O(1). */
class Lane {
  private items: string[] = [];
  private head = 0;

  push(key: string): void {
    this.items.push(key);
  }

  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const key = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

export class WorkQueue {
  private readonly lanes = [new Lane(), new Lane()];
  /** Queued keys and the lane that holds them (an entry left in another lane is skipped). */
  private readonly queued = new Map<string, number>();
  private readonly active = new Set<string>();
  /** Keys added while active, and whether one of those adds was urgent. */
  private readonly dirty = new Map<string, boolean>();
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly delayTimers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  private running = 0;
  private paused = true;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WorkQueueOptions) {}

  get depth(): number {
    return this.queued.size;
  }

  add(key: string, options: AddOptions = {}): void {
    const urgent = options.urgent === true;
    if (this.active.has(key)) {
      this.dirty.set(key, urgent || (this.dirty.get(key) ?? false));
      return;
    }
    const lane = this.queued.get(key);
    if (lane === URGENT || (lane === BULK && !urgent)) return;
    // New, or moving up from the bulk lane (its old entry there is skipped when reached).
    this.queued.set(key, urgent ? URGENT : BULK);
    this.lanes[urgent ? URGENT : BULK]?.push(key);
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
    for (const lane of this.lanes) lane.clear();
    this.queued.clear();
    this.dirty.clear();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const { timer } of this.delayTimers.values()) clearTimeout(timer);
    this.delayTimers.clear();
  }

  /** Resolves when nothing is queued or running (timers not counted). */
  whenIdle(): Promise<void> {
    if (this.running === 0 && (this.paused || this.queued.size === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The next key of a lane, skipping entries that moved to the urgent lane. */
  private take(lane: number): string | undefined {
    for (;;) {
      const key = this.lanes[lane]?.shift();
      if (key === undefined) return undefined;
      if (this.queued.get(key) === lane) {
        this.queued.delete(key);
        return key;
      }
    }
  }

  private pump(): void {
    const workers = this.options.workers ?? 2;
    const urgentWorkers = workers + (this.options.urgentWorkers ?? 0);
    while (!this.paused) {
      let key: string | undefined;
      if (this.running < urgentWorkers) key = this.take(URGENT);
      if (key === undefined && this.running < workers) key = this.take(BULK);
      if (key === undefined) break;
      this.active.add(key);
      this.running++;
      void this.work(key);
    }
    if (this.running === 0 && (this.paused || this.queued.size === 0)) {
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
    const again = this.dirty.get(key);
    if (again !== undefined) {
      this.dirty.delete(key);
      this.add(key, { urgent: again });
    }
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
