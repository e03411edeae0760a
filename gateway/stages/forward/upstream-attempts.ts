/**
 * What the forward stage has sent upstream, written by it alone as it goes (the failover loop and
 * each attempt): read by the reply stage's lease progress, by settlement, and by the request's end,
 * which aborts the attempt under way and gives back the slot held (request-end.ts).
 */
import type { RequestPrice } from '../../billing/price-request.js';
import type { UpstreamAbort } from './upstream-abort.js';

export interface UpstreamAttempts {
  /** Upstream attempts made (failover); 0 when nothing was sent upstream. */
  count: number;
  upstream: string | null;
  upstreamModel: string | null;
  status: number;
  stream: boolean;
  timeToFirstByteMs: number | null;
  /** Attempts abandoned for sending no first output in time (the record's flag). */
  firstOutputTimeouts: number;
  /** The upstream whose concurrency slot this request holds (hold-upstream-slot.ts). */
  slot: string | null;
  /** Aborts the attempt under way. */
  abort: UpstreamAbort | null;
  /**
   * The price of the latest attempt's upstream when it overrides the admission's
   * (`Upstream.spec.pricing`); null = the admission's price. The serving attempt's is billed.
   */
  price: RequestPrice | null;
}

export function newUpstreamAttempts(): UpstreamAttempts {
  return {
    count: 0,
    upstream: null,
    upstreamModel: null,
    status: 0,
    stream: false,
    timeToFirstByteMs: null,
    firstOutputTimeouts: 0,
    slot: null,
    abort: null,
    price: null,
  };
}
