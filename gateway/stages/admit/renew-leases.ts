/**
 * Keeps the reservation and slot leases of in-flight requests alive: one shared interval renews
 * every registered request with one store call, so a long stream never loses its slot while a
 * crashed gateway's leases still expire (and are charged as estimated: each renewal carries what
 * the request has delivered so far, which the store charges then). A finished request stays
 * registered until its settlement is confirmed or handed over (settle-with-retry.ts); only its
 * upstream slot is let go at once.
 */
import type { LeaseProgress, LeaseRenewal, SpendStore } from '../../../store/store.js';

export interface LeaseRef {
  namespace: string;
  keyUid: string;
  requestId: string;
  /**
   * What the request has delivered so far, read at each renewal and kept by the store with the
   * lease, so an expired lease is charged for it (describe-lease-progress.ts); undefined until
   * there is a relayed reply.
   */
  progress?: () => LeaseProgress | undefined;
  /**
   * The request has ended (its reply is metered): `progress` reads what it needs of it once, and
   * lets go of the rest (called by `LeaseRenewer.letGo`).
   */
  letGo?: () => void;
}

/** An upstream concurrency slot held by a request (re-acquiring a held slot extends its lease). */
export interface UpstreamSlotRef {
  upstream: string;
  limit: number;
}

export interface LeaseRenewerOptions {
  store: Pick<SpendStore, 'renewLease' | 'acquireUpstreamSlot'>;
  leaseMs: number;
  clock: () => number;
  onError: (error: unknown) => void;
}

/** A progress that cannot be read leaves the lease as it was: the renewal itself goes on. */
function readProgress(ref: LeaseRef): LeaseProgress | undefined {
  try {
    return ref.progress?.();
  } catch {
    return undefined;
  }
}

export class LeaseRenewer {
  readonly #inFlight = new Map<string, LeaseRef>();
  readonly #upstreamSlots = new Map<string, UpstreamSlotRef>();
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

  /** Also keeps the request's upstream slot alive until `remove`. */
  holdUpstreamSlot(requestId: string, slot: UpstreamSlotRef): void {
    if (this.#inFlight.has(requestId)) this.#upstreamSlots.set(requestId, slot);
  }

  /** Stops renewing the request's upstream slot (the request no longer uses the upstream). */
  releaseUpstreamSlot(requestId: string): void {
    this.#upstreamSlots.delete(requestId);
  }

  /**
   * The request has ended and its settlement is about to be submitted: its lease is still renewed
   * until the store confirms it, from what its `progress` read once, without keeping the request.
   */
  letGo(requestId: string): void {
    const ref = this.#inFlight.get(requestId);
    if (ref === undefined) return;
    try {
      ref.letGo?.();
    } catch {
      // A progress that cannot be read leaves the lease as it was (`readProgress`).
    }
  }

  remove(requestId: string): void {
    this.#inFlight.delete(requestId);
    this.#upstreamSlots.delete(requestId);
    if (this.#inFlight.size === 0) this.stop();
  }

  async renewNow(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    const now = this.#options.clock();
    const { store, leaseMs } = this.#options;
    try {
      const renewals: LeaseRenewal[] = [];
      for (const ref of this.#inFlight.values()) {
        const { namespace, keyUid, requestId } = ref;
        renewals.push({ namespace, keyUid, requestId, progress: readProgress(ref) });
      }
      await store.renewLease(renewals, now + leaseMs);
      for (const [requestId, slot] of this.#upstreamSlots) {
        await store.acquireUpstreamSlot({ ...slot, requestId, now, leaseMs });
      }
    } catch (error) {
      this.#options.onError(error);
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
