/**
 * The upstream claim, with clean grants reused in the process for a short time (default 500 ms,
 * `--upstream-claim-cache-ms`). For an upstream without limits (no concurrency limit, no requests
 * per minute) the claim counts nothing: it only reads the shared health. A grant that was clean
 * (not the half-open probe, no failure recorded) is reused for `ttlMs`, so a busy healthy upstream
 * costs one claim script per half second instead of one per call.
 *
 * Correctness: an upstream with a limit is claimed on every call (the claim counts and takes the
 * slot). A failure this replica reports drops the upstream's entry at once, so its next call reads
 * the new cool-down or open circuit. A cool-down or open circuit started by another replica is
 * seen here at most `ttlMs` later (the same bound as the key-policy cache); meanwhile a call here
 * may still try the upstream, and its own failure fails over and reports as usual. Concurrent
 * misses share one claim only through the store (each miss runs the script); failed claims are
 * not cached.
 */
import type { UpstreamClaim, UpstreamHealthStore } from '../../store/upstream-health.js';

type ClaimStore = Pick<UpstreamHealthStore, 'claimUpstream' | 'reportUpstreamFailure'>;

export interface CleanClaimCacheOptions {
  store: ClaimStore;
  /** How long a clean grant is reused; 0 turns the cache off. */
  ttlMs: number;
  /** A monotonic clock in ms (default `performance.now`), never the business clock of tests. */
  clock?: () => number;
}

const CLEAN: UpstreamClaim = { granted: true, probe: false, slot: false, dirty: false };

export function cacheCleanClaims(options: CleanClaimCacheOptions): ClaimStore {
  const { store, ttlMs } = options;
  if (ttlMs <= 0) return store;
  const clock = options.clock ?? (() => performance.now());
  /** Upstream name → when its last clean grant was read. */
  const cleanAt = new Map<string, number>();
  /** Upstream name → the count of failures this replica reported, so a claim that was under way
   * when a failure was reported does not bring its clean grant back. */
  const failures = new Map<string, number>();
  return {
    async claimUpstream(request) {
      const unlimited = request.limit === 0 && request.requestsPerMinute === 0;
      if (unlimited) {
        const at = cleanAt.get(request.upstream);
        const now = clock();
        if (at !== undefined && now - at < ttlMs && now >= at) return CLEAN;
      }
      const readAt = clock();
      const failuresBefore = failures.get(request.upstream) ?? 0;
      const claimed = await store.claimUpstream(request);
      const clean = claimed.granted && !claimed.probe && !claimed.slot && !claimed.dirty;
      if (unlimited && clean && (failures.get(request.upstream) ?? 0) === failuresBefore) {
        cleanAt.set(request.upstream, readAt);
      } else cleanAt.delete(request.upstream);
      return claimed;
    },
    reportUpstreamFailure(report) {
      cleanAt.delete(report.upstream);
      failures.set(report.upstream, (failures.get(report.upstream) ?? 0) + 1);
      return store.reportUpstreamFailure(report);
    },
  };
}
