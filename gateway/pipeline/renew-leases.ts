/**
 * Keeps the reservation and slot leases of in-flight requests alive: one shared interval renews
 * every registered request with one store call, so a long stream never loses its slot while a
 * crashed gateway's leases still expire.
 */
import type { SpendStore } from '../store/store.js';

export interface LeaseRef {
  namespace: string;
  keyUid: string;
  requestId: string;
}

export interface LeaseRenewerOptions {
  store: Pick<SpendStore, 'renewLease'>;
  leaseMs: number;
  clock: () => number;
  onError: (error: unknown) => void;
}

export class LeaseRenewer {
  readonly #inFlight = new Map<string, LeaseRef>();
  readonly #options: LeaseRenewerOptions;
  #timer: NodeJS.Timeout | null = null;

  constructor(options: LeaseRenewerOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#inFlight.size;
  }

  add(ref: LeaseRef): void {
    this.#inFlight.set(ref.requestId, ref);
    if (this.#timer === null) {
      this.#timer = setInterval(
        () => void this.renewNow(),
        Math.max(50, this.#options.leaseMs / 3),
      );
      this.#timer.unref();
    }
  }

  remove(requestId: string): void {
    this.#inFlight.delete(requestId);
    if (this.#inFlight.size === 0) this.stop();
  }

  async renewNow(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    const refs = [...this.#inFlight.values()];
    try {
      await this.#options.store.renewLease(refs, this.#options.clock() + this.#options.leaseMs);
    } catch (error) {
      this.#options.onError(error);
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
