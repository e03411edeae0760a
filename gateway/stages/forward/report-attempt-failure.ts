/**
 * A failed attempt reported to the shared upstream health (docs/upstream-pools.md): the reset time
 * the provider named (retry-after, its rate-limit reset headers, Google RetryInfo) or the backoff,
 * the circuit's failure count, a credential refusal for the Upstream's status; and whether the
 * request may go on to the next upstream. A store that cannot be reached does not fail the
 * request: the attempt still fails over, the failure is only not shared.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../../store/store.js';
import type { UpstreamHealthPolicy } from '../../../store/upstream-health.js';
import type { UpstreamMetrics } from '../../metrics/upstream-metrics.js';
import { failsOver, failureKind } from '../../upstreams/classify-attempt.js';
import { readResetTime } from '../../upstreams/read-reset-time.js';
import type { UpstreamCache } from '../../upstreams/resolve-upstreams.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { AttemptResult } from './attempt-upstream.js';

export interface FailureReportDependencies {
  store: Pick<Store, 'reportUpstreamFailure'>;
  upstreams: Pick<UpstreamCache, 'invalidate'>;
  providers: ProviderRegistry;
  clock: () => number;
  failover: { health: UpstreamHealthPolicy };
  metrics?: UpstreamMetrics;
}

export interface FailureReport {
  upstream: ResolvedUpstream;
  failed: Extract<AttemptResult, { kind: 'error-status' | 'transport-error' }>;
  log: FastifyBaseLogger;
}

const COOLDOWN_REASONS = {
  'rate-limited': 'rate_limited',
  overloaded: 'overloaded',
  failed: 'circuit_open',
  credentials: 'credentials',
} as const;

/** Reports the failure; true when the request may fail over to the next upstream. */
export async function reportAttemptFailure(
  dependencies: FailureReportDependencies,
  report: FailureReport,
): Promise<boolean> {
  const { failed, upstream } = report;
  const now = dependencies.clock();
  const status = failed.kind === 'error-status' ? failed.reply.status : 0;
  const credentialRefused = status === 401 || status === 403;
  if (credentialRefused) {
    // Re-read the credential (it may have been rotated) and drop any cached access token.
    dependencies.upstreams.invalidate(upstream.name);
    dependencies.providers[upstream.provider.kind].invalidate?.(upstream);
  }
  const resetAt =
    failed.kind === 'error-status'
      ? readResetTime({ headers: failed.reply.headers, body: failed.reply.json, now })
      : null;
  const kind = credentialRefused ? 'credentials' : failureKind(failed.outcome, resetAt);
  if (kind !== null) {
    try {
      const result = await dependencies.store.reportUpstreamFailure({
        upstream: upstream.name,
        kind,
        resetAt,
        now,
        policy: dependencies.failover.health,
      });
      if (result.started && result.cause !== null) {
        dependencies.metrics?.cooldowns.inc({
          upstream: upstream.name,
          reason: COOLDOWN_REASONS[result.cause],
        });
      }
    } catch (error) {
      report.log.warn({ err: error, upstream: upstream.name }, 'upstream failure not recorded');
    }
  }
  return failsOver(failed.outcome);
}
