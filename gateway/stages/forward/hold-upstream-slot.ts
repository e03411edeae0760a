/**
 * An upstream's concurrency slot held by a request: claimed in the store with the upstream (one
 * script that also checks its cool-down, circuit and rate), kept alive by the lease renewer, and
 * given back here only, whether the attempt failed over, the client left before it started, or
 * the request ended (request-end.ts). The slot is cleared before the store call: given back once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { SpendStore, Store } from '../../../store/store.js';
import type { UpstreamClaim } from '../../../store/upstream-health.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { LeaseRenewer } from '../admit/renew-leases.js';
import type { UpstreamAttempts } from './upstream-attempts.js';

export interface SlotDependencies {
  store: Pick<SpendStore, 'releaseUpstreamSlot'>;
  renewer: LeaseRenewer;
}

export interface ClaimDependencies extends SlotDependencies {
  store: Pick<Store, 'claimUpstream' | 'releaseUpstreamSlot'>;
  clock: () => number;
  leaseMs: number;
  /** `probeLeaseMs`: how long the half-open probe holds its claim. */
  failover: { probeLeaseMs: number };
}

/** Claims the upstream for the request; a granted slot is held until `releaseUpstreamSlot`. */
export async function claimUpstream(
  dependencies: ClaimDependencies,
  held: { readonly requestId: string; readonly attempts: UpstreamAttempts | null },
  upstream: ResolvedUpstream,
): Promise<UpstreamClaim> {
  const { requestId, attempts } = held;
  const claimed = await dependencies.store.claimUpstream({
    upstream: upstream.name,
    requestId,
    limit: upstream.maxConcurrent,
    requestsPerMinute: upstream.requestsPerMinute,
    now: dependencies.clock(),
    leaseMs: dependencies.leaseMs,
    probeLeaseMs: dependencies.failover.probeLeaseMs,
  });
  if (claimed.granted && claimed.slot && attempts !== null) {
    attempts.slot = upstream.name;
    dependencies.renewer.holdUpstreamSlot(requestId, {
      upstream: upstream.name,
      limit: upstream.maxConcurrent,
    });
  }
  return claimed;
}

/**
 * Gives back the slot held, if any, and stops renewing it; undefined when no slot is held in the
 * store (nothing to wait for).
 */
export function releaseUpstreamSlot(
  dependencies: SlotDependencies,
  held: { readonly requestId: string; readonly attempts: UpstreamAttempts | null },
  log: FastifyBaseLogger,
): Promise<void> | undefined {
  const { requestId, attempts } = held;
  dependencies.renewer.releaseUpstreamSlot(requestId);
  const upstream = attempts?.slot ?? null;
  if (attempts === null || upstream === null) return undefined;
  attempts.slot = null;
  return dependencies.store.releaseUpstreamSlot(upstream, requestId).catch((error: unknown) => {
    // The slot's own lease frees it; this must not keep the request from going on or settling.
    log.warn({ err: error, requestId }, 'upstream slot release failed');
  });
}
