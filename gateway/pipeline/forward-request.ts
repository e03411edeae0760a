/**
 * The forward stage: pick an upstream (priority, then weighted random; skip ones at their slot
 * limit), build the upstream request through the protocol's adapter, send it on the origin's pool
 * and stream the reply to the client chunk by chunk through the meter (`relay-metered-reply.ts`).
 * Error statuses are mapped to the caller's protocol (nothing is metered for them). The upstream
 * request's abort controller and the meter are kept in the request state: when the client goes
 * away, the response's close handler aborts the one and ends the other (finish-request.ts). If the
 * client went away before there was anything to abort (while an upstream slot was taken or the
 * credential fetched), the request is settled already: the stage gives back a slot it took after
 * that settlement and aborts at once, so nothing is sent upstream.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import type { SpendStore } from '../../store/store.js';
import { headersForClient, headersForUpstream } from './filter-headers.js';
import { decideUpstreamError, mapTransportError } from './map-upstream-failure.js';
import type {
  ForwardContext,
  RequestAdapter,
  UsageReaders,
} from '../protocols/protocol-adapter.js';
import type { LeaseRenewer } from './renew-leases.js';
import type { RequestState } from './request-state.js';
import { relayMeteredReply } from './relay-metered-reply.js';
import type { ResolvedUpstream, UpstreamCache } from '../upstreams/resolve-upstreams.js';
import type { UpstreamCredentials } from '../upstreams/upstream-credentials.js';
import { orderUpstreams } from '../upstreams/select-upstream.js';
import type { UpstreamPools } from '../upstreams/upstream-pools.js';

export interface ForwardDependencies {
  store: Pick<SpendStore, 'acquireUpstreamSlot' | 'releaseUpstreamSlot'>;
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
}

export interface ForwardCall {
  request: FastifyRequest;
  reply: FastifyReply;
  state: RequestState;
  adapter: RequestAdapter;
  context: ForwardContext;
}

async function pickUpstream(
  dependencies: ForwardDependencies,
  state: RequestState,
  candidates: readonly ResolvedUpstream[],
): Promise<ResolvedUpstream> {
  if (candidates.length === 0) throw new GatewayError('TG_NO_UPSTREAM');
  for (const upstream of orderUpstreams(candidates, dependencies.random)) {
    if (upstream.maxConcurrent <= 0) return upstream;
    const acquired = await dependencies.store.acquireUpstreamSlot({
      upstream: upstream.name,
      requestId: state.requestId,
      limit: upstream.maxConcurrent,
      now: dependencies.clock(),
      leaseMs: dependencies.leaseMs,
    });
    if (acquired) {
      state.upstreamSlot = upstream.name;
      dependencies.renewer.holdUpstreamSlot(state.requestId, {
        upstream: upstream.name,
        limit: upstream.maxConcurrent,
      });
      return upstream;
    }
  }
  throw new GatewayError('TG_UPSTREAM_BUSY', { retryAfterSeconds: 1 });
}

/** Read afresh after each await: the close handler sets it at any time. */
function responseClosed(state: RequestState): boolean {
  return state.closed;
}

/**
 * The client left while the slot was being taken: the close handler's settlement ran before the
 * state named the slot, so it is given back here (settlement frees the rest).
 */
async function returnSlotOfGoneClient(dependencies: ForwardDependencies, state: RequestState) {
  const upstream = state.upstreamSlot;
  if (upstream === null) return;
  dependencies.renewer.releaseUpstreamSlot(state.requestId);
  await dependencies.store.releaseUpstreamSlot(upstream, state.requestId);
}

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      body.destroy();
      break;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

async function answerUpstreamError(
  call: ForwardCall,
  response: Dispatcher.ResponseData,
  limit: number,
) {
  const bytes = await readBounded(response.body, limit);
  const decision = decideUpstreamError({
    status: response.statusCode,
    retryAfter: headerText(response.headers['retry-after']),
    body: parseJson(bytes),
    isCallerShape: (body) => call.adapter.isErrorBody(body),
  });
  if (decision.kind === 'render') {
    if (decision.retryAfter !== null) call.reply.header('retry-after', decision.retryAfter);
    throw decision.error;
  }
  const headers = headersForClient(response.headers);
  // Translated routes answer in the caller's protocol, error bodies included.
  const translator = call.adapter.translateReply?.(call.context, {
    stream: false,
    status: response.statusCode,
  });
  const body =
    translator === undefined ? bytes : Buffer.concat([translator.push(bytes), translator.end()]);
  return call.reply.code(decision.status).headers(headers).send(body);
}

export async function forwardRequest(
  dependencies: ForwardDependencies,
  call: ForwardCall,
): Promise<FastifyReply> {
  const { state, context, request, reply } = call;
  const admitted = state.admitted;
  if (admitted === null) throw new GatewayError('TG_INTERNAL', { detail: 'not admitted' });
  const candidates = await dependencies.upstreams.resolve(
    admitted.policy.group.name,
    admitted.policy.group.upstreams,
  );
  const upstream = await pickUpstream(dependencies, state, candidates);
  if (responseClosed(state)) {
    await returnSlotOfGoneClient(dependencies, state).catch((error: unknown) => {
      // The slot's own lease frees it.
      request.log.warn({ err: error, requestId: state.requestId }, 'upstream slot release failed');
    });
    throw new GatewayError('TG_CLIENT_CLOSED');
  }
  const adapter = call.adapter.forUpstream?.(upstream) ?? call.adapter;
  const model = admitted.model;
  const upstreamModel = model === null ? null : (upstream.modelOverrides[model] ?? null);
  const parts = adapter.buildUpstream(context, upstreamModel);
  const headers = headersForUpstream(request.headers);
  adapter.applyCredential(headers, await dependencies.credentials.credentialFor(upstream));
  state.outcome.upstream = upstream.name;
  state.outcome.upstreamModel = upstreamModel ?? model;
  state.outcome.stream = adapter.isStream(context);

  // Aborted when the response closes unfinished (the request's one close handler, app.ts), or at
  // once when it closed already (during the credential fetch): nothing is sent upstream then.
  const abort = new AbortController();
  state.upstreamAbort = abort;
  if (responseClosed(state)) abort.abort();
  const started = dependencies.clock();
  let response: Dispatcher.ResponseData;
  try {
    response = await dependencies.pools.get(upstream.origin).request({
      path: `${upstream.basePath}${parts.path}`,
      method: request.method,
      headers,
      body: parts.body,
      signal: abort.signal,
      headersTimeout: dependencies.pools.timeouts.headersTimeoutMs,
      bodyTimeout: dependencies.pools.timeouts.bodyTimeoutMs,
    });
  } catch (error) {
    if (abort.signal.aborted) throw new GatewayError('TG_CLIENT_CLOSED', { cause: error });
    throw mapTransportError(error);
  }
  state.outcome.status = response.statusCode;
  state.outcome.timeToFirstByteMs = dependencies.clock() - started;
  if (response.statusCode === 401 || response.statusCode === 403) {
    // Re-read the credential (it may have been rotated) and drop any cached access token.
    dependencies.upstreams.invalidate(upstream.name);
    dependencies.credentials.invalidate?.(upstream);
  }
  if (response.statusCode >= 400) {
    return answerUpstreamError({ ...call, adapter }, response, dependencies.maxErrorBodyBytes);
  }
  const stream = adapter.isStream(context);
  const translator =
    adapter.translateReply?.(context, { stream, status: response.statusCode }) ?? null;
  const relay = relayMeteredReply({
    body: response.body,
    reader: dependencies.usageReaders[adapter.upstreamFormat(context)],
    stream,
    contentType: headerText(response.headers['content-type']) ?? '',
    translator,
    streamError: (error) => adapter.streamError(context, mapTransportError(error)),
    onUpstreamError: (error) => {
      request.log.warn({ err: error, upstream: upstream.name }, 'upstream failed mid-stream');
    },
  });
  // Told when the response closes (the request's one close handler): ends the meter if unended.
  state.metering.relay = relay;
  if (translator !== null && !stream) {
    // A translated whole reply is complete only at its end, and may carry another status.
    const chunks: Buffer[] = [];
    for await (const chunk of relay.body) chunks.push(chunk as Buffer);
    return reply
      .code(translator.status?.() ?? response.statusCode)
      .headers(headersForClient(response.headers))
      .send(Buffer.concat(chunks));
  }
  return reply
    .code(response.statusCode)
    .headers(headersForClient(response.headers))
    .send(relay.body);
}
