/**
 * How long the store remembers that a request id was settled or charged (DESIGN.md 9: settlement
 * happens exactly once per request id). One marker per request, so its lifetime is what the store
 * holds per request: at 100 calls/s, 7 days of markers are 60 million Redis keys (149 bytes each,
 * 9 GB), or in the memory store a map written to its file on every change (docs/store.md).
 *
 * - A **settlement**'s marker only has to outlive the gateway's retries of that same settlement: a
 *   reply lost after the script ran is retried for at most the settlement retry window
 *   (`--settlement-retry-ms`), then handed over to the lease, which finds nothing left to charge.
 *   It is kept twice that window, and 15 minutes at least.
 * - A **lease charged as estimated** keeps its marker 7 days: the settlement of that request may
 *   still come from a gateway that lost the store for as long as its stream went on. Such charges
 *   only follow a gateway's death or a lost store, so these markers are few.
 */

export const LEASE_CHARGE_MARKER_TTL_MS = 7 * 24 * 3_600_000;

export const MIN_SETTLEMENT_MARKER_TTL_MS = 15 * 60_000;

/** The settlement marker's lifetime for a gateway retrying settlements for `retryForMs`. */
export function settlementMarkerTtlMs(retryForMs: number): number {
  return Math.max(MIN_SETTLEMENT_MARKER_TTL_MS, 2 * retryForMs);
}
