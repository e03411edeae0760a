/**
 * The periodic lease sweep: charges every expired, unsettled lease (a gateway died mid-request) as
 * an estimated record, also in namespaces that get no further traffic (admission and counter reads
 * charge their own namespace lazily). Every gateway replica runs it, and the store lets only one
 * replica per period sweep (a claim with a TTL), so the work does not grow with the replica count
 * and no operator has to be up for a dead gateway's calls to be billed. The store charges each
 * request id once, so overlapping sweeps are harmless.
 */
import type { MeteringMetrics } from '../../metrics/metering-metrics.js';
import type { SpendStore } from '../../../store/store.js';

export interface LeaseSweeperOptions {
  store: Pick<SpendStore, 'sweepExpiredLeases'>;
  /** Sweep period; 0 disables the sweep. */
  intervalMs: number;
  clock: () => number;
  metrics?: MeteringMetrics | undefined;
  onCharged: (charged: number) => void;
  onError: (error: unknown) => void;
}

export class LeaseSweeper {
  readonly #options: LeaseSweeperOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(options: LeaseSweeperOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#options.intervalMs <= 0 || this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      void this.sweepNow();
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Sweeps now (unless another replica holds this period's claim); resolves to the charged. */
  sweepNow(): Promise<number> {
    this.#running ??= this.#sweep().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  async #sweep(): Promise<number> {
    const { store, intervalMs, clock, metrics } = this.#options;
    try {
      // The claim ends a little before the next period so a replica's own next sweep is not blocked.
      const claimMs = Math.max(1, Math.floor(intervalMs * 0.9));
      const result = await store.sweepExpiredLeases({ now: clock(), claimMs });
      if (result.charged > 0) {
        metrics?.expiredLeasesCharged.inc(result.charged);
        this.#options.onCharged(result.charged);
      }
      return result.charged;
    } catch (error) {
      this.#options.onError(error);
      return 0;
    }
  }
}
