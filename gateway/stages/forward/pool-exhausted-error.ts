/**
 * The answer when no upstream of the group could be tried (pure): every one was skipped. All at
 * their concurrency limit: 503 `TG_UPSTREAM_BUSY`; all rate limited (cooling down after a 429 /
 * 529, or at their requests-per-minute limit; busy ones aside): 429 `TG_UPSTREAMS_RATE_LIMITED`;
 * any with an open circuit: 503 `TG_UPSTREAMS_UNAVAILABLE`. `retry-after` is the earliest reset.
 */
import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamSkipReason } from '../../../store/upstream-health.js';

export interface SkippedUpstream {
  upstream: string;
  reason: UpstreamSkipReason;
  until: number | null;
}

export function poolExhaustedError(skipped: readonly SkippedUpstream[], now: number): GatewayError {
  if (skipped.length === 0) return new GatewayError('TG_NO_UPSTREAM');
  const paused = skipped.filter((skip) => skip.reason !== 'Busy');
  if (paused.length === 0) return new GatewayError('TG_UPSTREAM_BUSY', { retryAfterSeconds: 1 });
  const ends = paused.map((skip) => skip.until).filter((until): until is number => until !== null);
  const earliest = ends.length === 0 ? null : Math.min(...ends);
  const retryAfterSeconds =
    earliest === null ? undefined : Math.max(1, Math.ceil((earliest - now) / 1000));
  const rateLimited = paused.every(
    (skip) => skip.reason === 'CoolingDown' || skip.reason === 'RequestsPerMinute',
  );
  const code = rateLimited ? 'TG_UPSTREAMS_RATE_LIMITED' : 'TG_UPSTREAMS_UNAVAILABLE';
  // Upstream names are the operator's, never the caller's: the message names none.
  return new GatewayError(code, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
}
