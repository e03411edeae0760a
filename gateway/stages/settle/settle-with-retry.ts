/**
 * Settlement that survives a store blink. A settlement the store refuses (Redis restarting, a
 * failover) waits in a bounded in-memory queue and is retried with exponential backoff and jitter
 * for `retryForMs` (default five minutes). Retrying is safe because the store settles once per
 * request id. While a settlement waits, its lease is still renewed, so nothing charges it as
 * estimated meanwhile.
 *
 * When a settlement cannot be confirmed (the retry window ends, the queue is full, or the gateway
 * shuts down with the store still away), it is handed over to its lease: the gateway stops
 * renewing it, and once the lease ends the store charges the reservation as an `estimated` record
 * (describe-lease-charge.ts). The full settlement is logged at error level so the exact figure can
 * still be recovered. Nothing is silently free.
 */
import type { MeteringMetrics } from '../../metrics/metering-metrics.js';
import type { SettlementRequest, SettlementResult, SpendStore } from '../../../store/store.js';
import { StoreUnavailableError } from '../../../store/store.js';

export type HandOverReason = 'retry_window_ended' | 'queue_full' | 'shutdown';

export interface PendingSettlement {
  request: SettlementRequest;
  /** The store confirmed it (`applied: false` when the id was settled or charged before). */
  onSettled: (result: SettlementResult) => void;
  /** Given up: the caller stops renewing the lease, whose end charges the reservation. */
  onHandedOver: (reason: HandOverReason) => void;
}

export interface SettlementLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SettlementQueueOptions {
  store: Pick<SpendStore, 'settle'>;
  /** How long a settlement is retried after its first failure. */
  retryForMs: number;
  /** Settlements waiting at most; beyond it a failed one is handed over at once. */
  maxPending: number;
  clock: () => number;
  random?: () => number;
  log: SettlementLog;
  metrics?: MeteringMetrics | undefined;
  /** Waited for settlements on close when no deadline was set by `drainBy`. */
  drainMs: number;
}

/** Backoff: 100 ms doubling to 5 s, each delay between half and all of it (jitter). */
export const RETRY_BASE_MS = 100;
export const RETRY_MAX_DELAY_MS = 5_000;

export function retryDelayMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

interface Entry {
  item: PendingSettlement;
  attempts: number;
  giveUpAt: number;
  timer: NodeJS.Timeout | null;
}

export class SettlementQueue {
  readonly #options: SettlementQueueOptions;
  readonly #entries = new Set<Entry>();
  #deadline: number | null = null;
  #closing = false;

  constructor(options: SettlementQueueOptions) {
    this.#options = options;
  }

  /** Settlements submitted and not yet confirmed or handed over. */
  get size(): number {
    return this.#entries.size;
  }

  /** Settles now; on failure keeps retrying in the background. Resolves after the first try. */
  async submit(item: PendingSettlement): Promise<void> {
    const entry: Entry = { item, attempts: 0, giveUpAt: 0, timer: null };
    this.#entries.add(entry);
    this.#updateGauge();
    const failed = await this.#attempt(entry);
    if (!failed) return;
    entry.giveUpAt = this.#options.clock() + this.#options.retryForMs;
    if (this.#entries.size > this.#options.maxPending) this.#handOver(entry, 'queue_full');
    else this.#schedule(entry);
  }

  /** The shutdown deadline for `close`: settlements still waiting then are handed over. */
  drainBy(deadline: number): void {
    this.#deadline = deadline;
  }

  /**
   * Waits for the waiting settlements until the drain deadline, tries each once more, and hands
   * over what the store still refuses.
   */
  async close(): Promise<void> {
    this.#closing = true;
    const deadline = this.#deadline ?? this.#options.clock() + this.#options.drainMs;
    while (this.#entries.size > 0 && this.#options.clock() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const left = [...this.#entries];
    await Promise.all(
      left.map(async (entry) => {
        if (entry.timer !== null) clearTimeout(entry.timer);
        entry.timer = null;
        if (await this.#attempt(entry)) this.#handOver(entry, 'shutdown');
      }),
    );
  }

  /** One try; true when it failed (the entry stays), false when the store confirmed it. */
  async #attempt(entry: Entry): Promise<boolean> {
    entry.attempts += 1;
    let result: SettlementResult;
    try {
      result = await this.#options.store.settle(entry.item.request);
    } catch (error) {
      const reason = StoreUnavailableError.is(error) ? 'store_unavailable' : 'store_error';
      this.#options.metrics?.settlementFailures.inc({ reason });
      const { requestId } = entry.item.request;
      this.#options.log.warn(
        { err: error, requestId, attempt: entry.attempts, reason },
        'settlement attempt failed; retrying',
      );
      return true;
    }
    // A retry and the final try at close may both succeed; only the first reports.
    if (!this.#entries.delete(entry)) return false;
    this.#updateGauge();
    entry.item.onSettled(result);
    return false;
  }

  #schedule(entry: Entry): void {
    if (this.#closing || !this.#entries.has(entry)) return;
    const now = this.#options.clock();
    if (now >= entry.giveUpAt) {
      this.#handOver(entry, 'retry_window_ended');
      return;
    }
    const delay = retryDelayMs(entry.attempts, this.#options.random ?? Math.random);
    entry.timer = setTimeout(
      () => {
        entry.timer = null;
        void this.#attempt(entry).then((failed) => {
          if (failed) this.#schedule(entry);
        });
      },
      Math.min(delay, Math.max(0, entry.giveUpAt - now)),
    );
    entry.timer.unref();
  }

  #handOver(entry: Entry, reason: HandOverReason): void {
    if (!this.#entries.delete(entry)) return;
    if (entry.timer !== null) clearTimeout(entry.timer);
    this.#updateGauge();
    this.#options.metrics?.settlementsHandedOver.inc({ reason });
    // The exact settlement, for reconciliation; the lease end charges the reservation meanwhile.
    this.#options.log.error(
      { settlement: entry.item.request, reason, attempts: entry.attempts },
      'settlement handed over to lease expiry (charged as estimated)',
    );
    entry.item.onHandedOver(reason);
  }

  #updateGauge(): void {
    this.#options.metrics?.pendingSettlements.set(this.#entries.size);
  }
}
