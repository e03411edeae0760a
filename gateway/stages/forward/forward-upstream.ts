/**
 * The forward stage, with failover before the first byte (docs/upstream-pools.md). The group's
 * upstreams are tried in schedule order: the session's bound upstream first (sticky sessions),
 * then priority order with a weighted random order within a priority. Each upstream is claimed
 * in the store first (hold-upstream-slot.ts: skipped while it cools down, while its circuit is
 * open unless this call is the probe, at its requests-per-minute or concurrency limit). A connect
 * failure, a connect or header timeout, a 5xx, 429 or 529 reports the failure to the shared
 * health state and tries the next upstream, up to `maxAttempts` and while the deadline allows;
 * the body is the one buffered at admission, replayed. So does a streamed success that sends no
 * first output within the group's first-output timeout (attempt-upstream.ts). A success status
 * commits (with that timeout, its first output): nothing is retried after that. Other 4xx are the
 * caller's answer. When every upstream was skipped, the caller gets 429 (rate limited) or 503 in
 * its protocol with `retry-after` = the earliest reset.
 *
 * Its result, `Forwarded`, is the upstream answer chosen: a success to relay, or the last error
 * status to answer; the reply stage sends either (send-reply.ts). A transport failure of the last
 * attempt is thrown as the gateway error it maps to.
 *
 * What was sent upstream is kept in `record.attempts` as it goes: the request's end aborts the
 * attempt under way and gives back the slot held (request-end.ts). If the client went away before
 * there was anything to abort (while an upstream was claimed or the credential fetched), the end
 * has passed already: the stage gives back a slot it took after that and sends nothing upstream.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../errors/gateway-error.js';
import type { Store } from '../../../store/store.js';
import { refuseMissingPolicy } from '../authorize/refuse-missing-policy.js';
import type { UpstreamHealthPolicy } from '../../../store/upstream-health.js';
import { mapTransportError } from './map-upstream-failure.js';
import type { RequestAdapter } from '../../spec/protocol-adapter.js';
import type { LeaseRenewer } from '../admit/renew-leases.js';
import type { Admitted } from '../admit/admitted.js';
import type { RequestRecord } from '../request/request-record.js';
import type { UpstreamCache } from '../../upstreams/resolve-upstreams.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { scheduleUpstreams } from '../../upstreams/select-upstream.js';
import type { UpstreamPools } from '../../upstreams/upstream-pools.js';
import type { UpstreamMetrics } from '../../metrics/upstream-metrics.js';
import type { UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { attemptUpstream, type AttemptResult } from './attempt-upstream.js';
import { claimUpstream, releaseUpstreamSlot } from './hold-upstream-slot.js';
import { clearHealth, noteSuccess } from './note-upstream-success.js';
import { poolExhaustedError, type SkippedUpstream } from './pool-exhausted-error.js';
import { reportAttemptFailure } from './report-attempt-failure.js';
import { newUpstreamAttempts } from './upstream-attempts.js';
import { describeAttemptEnd } from './describe-attempt-end.js';

export interface FailoverSettings {
  /** Upstreams one request may try; 1 = no failover. */
  maxAttempts: number;
  /** No further attempt starts this long after the first one started. */
  deadlineMs: number;
  /** How long the half-open probe holds its claim. */
  probeLeaseMs: number;
  health: UpstreamHealthPolicy;
}

export interface ForwardDependencies {
  store: Pick<
    Store,
    | 'claimUpstream'
    | 'releaseUpstreamSlot'
    | 'reportUpstreamFailure'
    | 'reportUpstreamSuccess'
    | 'bindSession'
    | 'readPolicyMarker'
  >;
  renewer: LeaseRenewer;
  upstreams: UpstreamCache;
  /** The provider of each kind (Direct, the cloud providers), built once. */
  providers: ProviderRegistry;
  pools: UpstreamPools;
  clock: () => number;
  random: () => number;
  leaseMs: number;
  /** Largest upstream error body read to decide how to answer. */
  maxErrorBodyBytes: number;
  failover: FailoverSettings;
  /** For groups that do not set `firstOutputTimeoutSeconds`; 0 = off. */
  firstOutputTimeoutMs: number;
  metrics?: UpstreamMetrics;
  /** The client Responses WebSockets' upstream sockets (attempt-upstream-websocket.ts). */
  websockets?: UpstreamWebsockets;
}

export interface ForwardCall {
  request: FastifyRequest;
  record: RequestRecord;
  admitted: Admitted;
  adapter: RequestAdapter;
}

/** The upstream answer the forward stage chose: a success to relay or an error status to answer. */
export type Forwarded = Extract<AttemptResult, { kind: 'success' } | { kind: 'error-status' }>;

type FailedAttempt = Exclude<AttemptResult, { kind: 'success' } | { kind: 'client-closed' }>;

/** The last failed attempt as the stage's result: its error status, or its transport error. */
function lastAnswer(failed: FailedAttempt): Forwarded {
  if (failed.kind === 'transport-error') throw mapTransportError(failed.error);
  return failed;
}

export async function forwardUpstream(
  dependencies: ForwardDependencies,
  call: ForwardCall,
): Promise<Forwarded> {
  const { record, request } = call;
  const admitted = call.admitted.request;
  const candidates = await dependencies.upstreams.resolve(
    admitted.policy.group.name,
    admitted.policy.group.upstreams,
  );
  if (candidates.length === 0) {
    // None of the group's upstream policies is in the store: a reload may not have reached them.
    throw await refuseMissingPolicy(dependencies.store, new GatewayError('TG_NO_UPSTREAM'));
  }
  const order = scheduleUpstreams(candidates, {
    bound: admitted.session?.boundUpstream ?? null,
    random: dependencies.random,
  });
  const { failover, metrics } = dependencies;
  const attempts = newUpstreamAttempts();
  record.attempts = attempts;
  const { group } = admitted.policy;
  const timeouts = {
    firstOutputMs: group.firstOutputTimeoutMs ?? dependencies.firstOutputTimeoutMs,
    idleMs: group.streamIdleTimeoutMs ?? dependencies.pools.timeouts.bodyTimeoutMs,
  };
  const firstStart = dependencies.clock();
  const skipped: SkippedUpstream[] = [];
  let last: { upstream: ResolvedUpstream; failed: FailedAttempt } | null = null;
  for (const upstream of order) {
    if (attempts.count >= failover.maxAttempts) break;
    if (last !== null && dependencies.clock() - firstStart >= failover.deadlineMs) break;
    const claimed = await claimUpstream(dependencies, record, upstream);
    if (!claimed.granted) {
      skipped.push({ upstream: upstream.name, reason: claimed.reason, until: claimed.until });
      continue;
    }
    if (record.closed) {
      await releaseUpstreamSlot(dependencies, record, request.log);
      throw new GatewayError('TG_CLIENT_CLOSED');
    }
    if (last !== null) {
      metrics?.failovers.inc({ upstream: last.upstream.name, reason: last.failed.outcome });
    }
    attempts.count += 1;
    const trace =
      record.trace === null
        ? null
        : record.trace.startAttempt({
            upstream,
            number: attempts.count,
            path: call.admitted.context.path,
            model: upstream.modelOverrides[admitted.model ?? ''] ?? admitted.model,
            json: call.admitted.context.json,
          });
    const result = await attemptUpstream(dependencies, {
      request,
      record,
      attempts,
      adapter: call.adapter,
      context: call.admitted.context,
      upstream,
      model: admitted.model,
      price: call.admitted.price,
      timeouts,
      trace,
    });
    if (trace !== null) trace.settle(describeAttemptEnd(result), result.kind === 'success');
    if (result.kind === 'client-closed') {
      throw new GatewayError('TG_CLIENT_CLOSED', { cause: result.error });
    }
    attempts.timeToFirstByteMs = dependencies.clock() - firstStart;
    if (result.kind === 'success') {
      attempts.status = result.response.statusCode;
      noteSuccess(dependencies, admitted, { upstream, claim: claimed, log: request.log });
      return result;
    }
    if (result.kind === 'error-status') attempts.status = result.reply.status;
    if (result.outcome === 'first_output_timeout') attempts.firstOutputTimeouts += 1;
    metrics?.attempts.inc({
      upstream: upstream.name,
      platform: upstream.platform,
      outcome: result.outcome,
    });
    const failsOver = await reportAttemptFailure(dependencies, {
      upstream,
      failed: result,
      log: request.log,
    });
    if (!failsOver) {
      // An upstream that answered a request error (not a credential refusal) is up: a probe or a
      // recorded failure count is cleared as by a success.
      const status = result.kind === 'error-status' ? result.reply.status : 0;
      if (status !== 0 && status !== 401 && status !== 403) {
        clearHealth(dependencies, { upstream, claim: claimed, log: request.log });
      }
      return lastAnswer(result);
    }
    await releaseUpstreamSlot(dependencies, record, request.log);
    last = { upstream, failed: result };
  }
  if (last !== null) return lastAnswer(last.failed);
  throw poolExhaustedError(skipped, dependencies.clock());
}
