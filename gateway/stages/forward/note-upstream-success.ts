/**
 * After an upstream answered: clear what its shared health recorded (a probe, a failure count) and
 * (re)bind the caller's session to it (sticky sessions). Never awaited by the reply; a store
 * failure is only logged.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../../store/store.js';
import type { UpstreamClaim } from '../../../store/upstream-health.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { AdmittedRequest } from '../admit/admit-request.js';

export interface SuccessDependencies {
  store: Pick<Store, 'reportUpstreamSuccess' | 'bindSession'>;
  clock: () => number;
}

export type GrantedClaim = UpstreamClaim & { granted: true };

export interface AnsweredAttempt {
  upstream: ResolvedUpstream;
  claim: GrantedClaim;
  log: FastifyBaseLogger;
}

function logHealthFailure(answered: AnsweredAttempt) {
  return (error: unknown) => {
    answered.log.warn(
      { err: error, upstream: answered.upstream.name },
      'upstream health update failed',
    );
  };
}

/** Clears what the upstream's health recorded, when there is anything. */
export function clearHealth(dependencies: SuccessDependencies, answered: AnsweredAttempt): void {
  if (!answered.claim.dirty && !answered.claim.probe) return;
  dependencies.store
    .reportUpstreamSuccess(answered.upstream.name)
    .catch(logHealthFailure(answered));
}

/** After a success status: clear recorded failures, (re)bind the session. */
export function noteSuccess(
  dependencies: SuccessDependencies,
  admitted: AdmittedRequest,
  answered: AnsweredAttempt,
): void {
  clearHealth(dependencies, answered);
  const session = admitted.session;
  if (session === null || session.boundUpstream === answered.upstream.name) return;
  dependencies.store
    .bindSession({
      namespace: admitted.policy.namespace,
      session: session.id,
      upstream: answered.upstream.name,
      ttlMs: session.ttlMs,
      now: dependencies.clock(),
    })
    .catch(logHealthFailure(answered));
}
