/**
 * The forward stage, with failover before the first byte (docs/upstream-pools.md). The group's
 * upstreams are tried in schedule order: the session's bound upstream first (sticky sessions),
 * then priority order with a weighted random order within a priority. Each upstream is claimed
 * in the store first (one script: skipped while it cools down, while its circuit is open unless
 * this call is the probe, at its requests-per-minute or concurrency limit). A connect failure,
 * a connect or header timeout, a 5xx, 429 or 529 reports the failure to the shared health state
 * and tries the next upstream, up to `maxAttempts` and while the deadline allows; the body is the
 * one buffered at admission, replayed. A success status commits: its body is relayed and metered
 * (`relay-metered-reply.ts`) and nothing is retried after that. Other 4xx are the caller's answer.
 * When every upstream was skipped, the caller gets 429 (rate limited) or 503 in its protocol with
 * `retry-after` = the earliest reset.
 *
 * The request state keeps the attempt's abort controller and the meter: when the client goes away,
 * the response's close handler aborts the one and ends the other (finish-request.ts). If the client
 * went away before there was anything to abort (while an upstream was claimed or the credential
 * fetched), the request is settled already: the stage gives back a slot it took after that
 * settlement and aborts at once, so nothing is sent upstream.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../../errors/gateway-error.js';
import type { Store } from '../../../store/store.js';
import { refuseMissingPolicy } from '../authorize/refuse-missing-policy.js';
import type { UpstreamClaim, UpstreamHealthPolicy } from '../../../store/upstream-health.js';
import { headersForClient } from './filter-headers.js';
import { decideUpstreamError, mapTransportError } from './map-upstream-failure.js';
import type {
  ForwardContext,
  ReplyTranslator,
  RequestAdapter,
  UsageReader,
  UsageReaders,
} from '../../spec/protocol-adapter.js';
import type { LeaseRenewer } from '../admit/renew-leases.js';
import type { RequestState } from '../request/request-state.js';
import {
  relayMeteredReply,
  replyFraming,
  type MeteredRelay,
  type MeteredReply,
} from '../reply/relay-metered-reply.js';
import {
  ClientClosedError,
  readWholeReply,
  type WholeReplyRead,
} from '../reply/read-whole-reply.js';
import type { ResolvedUpstream, UpstreamCache } from '../../upstreams/resolve-upstreams.js';
import type { UpstreamCredentials } from '../../upstreams/upstream-credentials.js';
import { scheduleUpstreams } from '../../upstreams/select-upstream.js';
import type { UpstreamPools } from '../../upstreams/upstream-pools.js';
import type { UpstreamMetrics } from '../../metrics/upstream-metrics.js';
import { attemptUpstream, type AttemptResult, type ErrorReply } from './attempt-upstream.js';
import { poolExhaustedError, type SkippedUpstream } from './pool-exhausted-error.js';
import { reportAttemptFailure } from './report-attempt-failure.js';

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
  credentials: UpstreamCredentials;
  pools: UpstreamPools;
  clock: () => number;
  random: () => number;
  leaseMs: number;
  /** Largest upstream error body read to decide how to answer. */
  maxErrorBodyBytes: number;
  /** The usage reader of each wire format (built by the composition root). */
  usageReaders: UsageReaders;
  failover: FailoverSettings;
  metrics?: UpstreamMetrics;
}

export interface ForwardCall {
  request: FastifyRequest;
  reply: FastifyReply;
  state: RequestState;
  adapter: RequestAdapter;
  context: ForwardContext;
}

/** A success body up to this size is read whole (the meter's parse limit). */
const WHOLE_REPLY_LIMIT_BYTES = 16 * 1024 * 1024;

type FailedAttempt = Exclude<AttemptResult, { kind: 'success' } | { kind: 'client-closed' }>;

async function claim(
  dependencies: ForwardDependencies,
  state: RequestState,
  upstream: ResolvedUpstream,
): Promise<UpstreamClaim> {
  const claimed = await dependencies.store.claimUpstream({
    upstream: upstream.name,
    requestId: state.requestId,
    limit: upstream.maxConcurrent,
    requestsPerMinute: upstream.requestsPerMinute,
    now: dependencies.clock(),
    leaseMs: dependencies.leaseMs,
    probeLeaseMs: dependencies.failover.probeLeaseMs,
  });
  if (claimed.granted && claimed.slot) {
    state.upstreamSlot = upstream.name;
    dependencies.renewer.holdUpstreamSlot(state.requestId, {
      upstream: upstream.name,
      limit: upstream.maxConcurrent,
    });
  }
  return claimed;
}

/** Gives back the slot of an attempt that is over (failed over, or the client is gone). */
async function releaseSlot(
  dependencies: ForwardDependencies,
  state: RequestState,
  request: FastifyRequest,
): Promise<void> {
  const upstream = state.upstreamSlot;
  if (upstream === null) return;
  state.upstreamSlot = null;
  dependencies.renewer.releaseUpstreamSlot(state.requestId);
  await dependencies.store
    .releaseUpstreamSlot(upstream, state.requestId)
    .catch((error: unknown) => {
      // The slot's own lease frees it.
      request.log.warn({ err: error, requestId: state.requestId }, 'upstream slot release failed');
    });
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** The last attempt's error status, answered as the caller's protocol expects. */
function answerErrorReply(call: ForwardCall, adapter: RequestAdapter, failed: ErrorReply) {
  const decision = decideUpstreamError({
    status: failed.status,
    retryAfter: headerText(failed.headers['retry-after']),
    body: failed.json,
    isCallerShape: (body) => adapter.isErrorBody(body),
  });
  if (decision.kind === 'render') {
    if (decision.retryAfter !== null) call.reply.header('retry-after', decision.retryAfter);
    throw decision.error;
  }
  // Translated routes answer in the caller's protocol, error bodies included.
  const translator = adapter.translateReply?.(call.context, {
    stream: false,
    status: failed.status,
  });
  const body =
    translator === undefined
      ? failed.bytes
      : Buffer.concat([translator.push(failed.bytes), translator.end()]);
  return call.reply.code(decision.status).headers(headersForClient(failed.headers)).send(body);
}

function answerFailure(call: ForwardCall, failed: FailedAttempt) {
  if (failed.kind === 'transport-error') throw mapTransportError(failed.error);
  return answerErrorReply(call, failed.adapter, failed.reply);
}

interface ServedAttempt {
  upstream: ResolvedUpstream;
  adapter: RequestAdapter;
  response: Dispatcher.ResponseData;
}

/** Counts the serving attempt once its reply is metered. */
function countServed(
  dependencies: ForwardDependencies,
  upstream: ResolvedUpstream,
  outcome: Promise<MeteredReply>,
): void {
  const { metrics } = dependencies;
  if (metrics === undefined) return;
  void outcome.then((metered) => {
    metrics.attempts.inc({
      upstream: upstream.name,
      platform: upstream.platform,
      outcome: metered.end === 'upstream-failed' ? 'stream_error' : 'ok',
    });
  });
}

/** How a success reply is passed on: decided once from the route and the reply's headers. */
interface ReplyPlan {
  stream: boolean;
  contentType: string;
  translator: ReplyTranslator | null;
  reader: UsageReader;
  streamError: (error: unknown) => string | null;
  onUpstreamError: (error: unknown) => void;
}

function planReply(dependencies: ForwardDependencies, call: ForwardCall, served: ServedAttempt) {
  const { context, request } = call;
  const { adapter, response, upstream } = served;
  const stream = adapter.isStream(context);
  const plan: ReplyPlan = {
    stream,
    contentType: headerText(response.headers['content-type']) ?? '',
    translator: adapter.translateReply?.(context, { stream, status: response.statusCode }) ?? null,
    reader: dependencies.usageReaders[adapter.upstreamFormat(context)],
    streamError: (error) => adapter.streamError(context, mapTransportError(error)),
    onUpstreamError: (error) => {
      request.log.warn({ err: error, upstream: upstream.name }, 'upstream failed mid-stream');
    },
  };
  return plan;
}

/**
 * Reads a JSON document whole and answers it as one buffer; a body too large to hold comes back
 * as the relay it goes on as. A body that breaks mid-way is answered as an upstream failure in
 * the caller's protocol (nothing was sent yet).
 */
async function sendWhole(
  dependencies: ForwardDependencies,
  call: ForwardCall,
  served: ServedAttempt & { plan: ReplyPlan },
): Promise<{ sent: FastifyReply } | { relay: MeteredRelay }> {
  const { state, reply } = call;
  const { response, plan } = served;
  const { reader, translator } = plan;
  const whole = readWholeReply({
    body: response.body,
    reader,
    translator,
    limitBytes: WHOLE_REPLY_LIMIT_BYTES,
    // Named, not `...rest`: V8 copies rest properties in its runtime, the slow way, on every call.
    relay: {
      stream: plan.stream,
      contentType: plan.contentType,
      streamError: plan.streamError,
      onUpstreamError: plan.onUpstreamError,
    },
  });
  // Told when the response closes (the request's one close handler): ends the meter if unended.
  state.metering.relay = whole;
  countServed(dependencies, served.upstream, whole.outcome);
  let read: WholeReplyRead;
  try {
    read = await whole.read;
  } catch (error) {
    if (error instanceof ClientClosedError) throw new GatewayError('TG_CLIENT_CLOSED');
    plan.onUpstreamError(error);
    // Nothing was sent yet: the caller gets (and the record keeps) the error status instead.
    const failure = mapTransportError(error);
    state.outcome.status = failure.statusCode;
    throw failure;
  }
  if (read.kind === 'relay') return { relay: read.relay };
  return {
    sent: reply
      .code(translator?.status?.() ?? response.statusCode)
      .headers(headersForClient(response.headers))
      .send(read.body),
  };
}

/**
 * Relays and meters a success reply: the serving attempt, the only one billed. One JSON document
 * is read whole and sent as one buffer (`read-whole-reply.ts`); a stream is relayed as it comes.
 */
async function sendSuccess(
  dependencies: ForwardDependencies,
  call: ForwardCall,
  served: ServedAttempt,
) {
  const { reply, state } = call;
  const { response } = served;
  const plan = planReply(dependencies, call, served);
  let relay: MeteredRelay;
  if (replyFraming(plan) === 'json') {
    const whole = await sendWhole(dependencies, call, { ...served, plan });
    if ('sent' in whole) return whole.sent;
    relay = whole.relay;
  } else {
    relay = relayMeteredReply({ ...plan, body: response.body });
    state.metering.relay = relay;
    countServed(dependencies, served.upstream, relay.outcome);
  }
  if (plan.translator !== null && !plan.stream) {
    // A translated whole reply is complete only at its end, and may carry another status.
    const chunks: Buffer[] = [];
    for await (const chunk of relay.body) chunks.push(chunk as Buffer);
    return reply
      .code(plan.translator.status?.() ?? response.statusCode)
      .headers(headersForClient(response.headers))
      .send(Buffer.concat(chunks));
  }
  return reply
    .code(response.statusCode)
    .headers(headersForClient(response.headers))
    .send(relay.body);
}

type GrantedClaim = UpstreamClaim & { granted: true };

function logHealthFailure(call: ForwardCall, upstream: ResolvedUpstream) {
  return (error: unknown) => {
    call.request.log.warn({ err: error, upstream: upstream.name }, 'upstream health update failed');
  };
}

/** Clears what the upstream's health recorded, when there is anything (never awaited). */
function clearHealth(
  dependencies: ForwardDependencies,
  call: ForwardCall,
  served: { upstream: ResolvedUpstream; claim: GrantedClaim },
): void {
  if (!served.claim.dirty && !served.claim.probe) return;
  dependencies.store
    .reportUpstreamSuccess(served.upstream.name)
    .catch(logHealthFailure(call, served.upstream));
}

/** After a success: clear recorded failures, (re)bind the session. Never awaited by the reply. */
function noteSuccess(
  dependencies: ForwardDependencies,
  call: ForwardCall,
  served: { upstream: ResolvedUpstream; claim: GrantedClaim },
): void {
  const { state } = call;
  const log = logHealthFailure(call, served.upstream);
  clearHealth(dependencies, call, served);
  const session = state.admitted?.session ?? null;
  if (session !== null && session.boundUpstream !== served.upstream.name) {
    dependencies.store
      .bindSession({
        namespace: state.admitted?.policy.namespace ?? '',
        session: session.id,
        upstream: served.upstream.name,
        ttlMs: session.ttlMs,
        now: dependencies.clock(),
      })
      .catch(log);
  }
}

export async function forwardRequest(
  dependencies: ForwardDependencies,
  call: ForwardCall,
): Promise<FastifyReply> {
  const { state, request } = call;
  const admitted = state.admitted;
  if (admitted === null) throw new GatewayError('TG_INTERNAL', { detail: 'not admitted' });
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
  const firstStart = dependencies.clock();
  const skipped: SkippedUpstream[] = [];
  let last: { upstream: ResolvedUpstream; failed: FailedAttempt } | null = null;
  for (const upstream of order) {
    if (state.outcome.attempts >= failover.maxAttempts) break;
    if (last !== null && dependencies.clock() - firstStart >= failover.deadlineMs) break;
    const claimed = await claim(dependencies, state, upstream);
    if (!claimed.granted) {
      skipped.push({ upstream: upstream.name, reason: claimed.reason, until: claimed.until });
      continue;
    }
    if (state.closed) {
      await releaseSlot(dependencies, state, request);
      throw new GatewayError('TG_CLIENT_CLOSED');
    }
    if (last !== null) {
      metrics?.failovers.inc({ upstream: last.upstream.name, reason: last.failed.outcome });
    }
    state.outcome.attempts += 1;
    const result = await attemptUpstream(dependencies, {
      request,
      state,
      adapter: call.adapter,
      context: call.context,
      upstream,
      model: admitted.model,
    });
    if (result.kind === 'client-closed') {
      throw new GatewayError('TG_CLIENT_CLOSED', { cause: result.error });
    }
    state.outcome.timeToFirstByteMs = dependencies.clock() - firstStart;
    if (result.kind === 'success') {
      state.outcome.status = result.response.statusCode;
      noteSuccess(dependencies, call, { upstream, claim: claimed });
      return sendSuccess(dependencies, call, { upstream, ...result });
    }
    if (result.kind === 'error-status') state.outcome.status = result.reply.status;
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
        clearHealth(dependencies, call, { upstream, claim: claimed });
      }
      return answerFailure(call, result);
    }
    await releaseSlot(dependencies, state, request);
    last = { upstream, failed: result };
  }
  if (last !== null) return answerFailure(call, last.failed);
  throw poolExhaustedError(skipped, dependencies.clock());
}
