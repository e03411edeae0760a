/**
 * One attempt at one upstream: the first-party request is built through the protocol's adapter (the
 * buffered body is replayed as received; it is re-serialised only for a model override or a
 * translation, as on a first attempt), the upstream's provider (`providers/registry.ts`) prepares
 * what is sent (address, body shape, credential: Direct passes the call on as it is), it is sent on
 * the prepared origin's pool, and its answer classified. A success status is handed back unread
 * (the caller's reply starts from it), behind the provider's reply decoder when it has one (the
 * reply stage then reads first-party bytes and the decoder's content type); an error status is
 * read, bounded, so the next attempt can start and the last one can still be answered, mapped to
 * the platform's error shape by the provider's `mapError` when it has one (its status and
 * retry-after feed the classification and the pool's cool-down); a transport error is classified
 * by its undici code. A provider that cannot prepare the call (no token, no credential) fails the
 * attempt as a connect failure does. With a first-output timeout, a streamed success is
 * handed back only once its first output came (await-first-output.ts; decoded bytes for a
 * provider with a decoder); a stream silent that long,
 * or that ends or breaks before, is an attempt failure like a connect failure (`first_output_timeout`,
 * `no_output`), its body aborted. The attempt's abort (`upstream-abort.ts`) is kept in the
 * request's `UpstreamAttempts`, so a client that goes away aborts the attempt under way
 * (request-end.ts). A turn of a client Responses WebSocket to an upstream with `responsesWebSocket`
 * goes over the upstream's own socket instead of a POST (attempt-upstream-websocket.ts), its
 * answer classified the same way.
 */
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { priceByUpstream, type RequestPrice } from '../../billing/price-request.js';
import type { ForwardContext, RequestAdapter } from '../../spec/protocol-adapter.js';
import {
  outcomeOfStatus,
  outcomeOfTransportError,
  type AttemptOutcome,
} from '../../upstreams/classify-attempt.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { PreparedCall, ProviderCall } from '../../spec/upstream-provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { UpstreamPools } from '../../upstreams/upstream-pools.js';
import { CONNECTION_HEADER, type UpstreamWebsockets } from '../../upstreams/upstream-websockets.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { attemptUpstreamWebsocket } from './attempt-upstream-websocket.js';
import { awaitFirstOutput } from './await-first-output.js';
import { decodeProviderReply } from './decode-provider-reply.js';
import { headersForUpstream } from './filter-headers.js';
import { answerInsteadOfError, mapProviderError } from './map-provider-error.js';
import type { UpstreamAttempts } from './upstream-attempts.js';
import { UpstreamAbort } from './upstream-abort.js';
import type { AttemptTrace } from '../../tracing/attempt-trace.js';

export interface AttemptDependencies {
  providers: ProviderRegistry;
  pools: UpstreamPools;
  maxErrorBodyBytes: number;
  /** The client Responses WebSockets' upstream sockets (attempt-upstream-websocket.ts). */
  websockets?: UpstreamWebsockets;
}

export interface AttemptInput {
  request: FastifyRequest;
  /** `closed`: the request's end has come (the client went away): nothing is sent upstream. */
  record: { readonly closed: boolean };
  attempts: UpstreamAttempts;
  adapter: RequestAdapter;
  context: ForwardContext;
  upstream: ResolvedUpstream;
  model: string | null;
  /** The admission's price; an upstream with a price override for the model replaces it. */
  price: RequestPrice | null;
  timeouts: StreamTimeouts;
  /** The attempt's span when tracing is on: it names the address and sends its `traceparent`. */
  trace?: AttemptTrace | null;
}

/** The group's stream timeouts (or the gateway's defaults), decided once per call. */
export interface StreamTimeouts {
  /** Wait for a streamed reply's first output before it is handed back; 0 = off. */
  firstOutputMs: number;
  /** undici's body timeout: the longest silence between two reply chunks. */
  idleMs: number;
}

/** An error status, read (bounded) so it can still be answered after the next attempts. */
export interface ErrorReply {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  bytes: Buffer;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

export type AttemptResult =
  | {
      kind: 'success';
      upstream: ResolvedUpstream;
      adapter: RequestAdapter;
      response: Dispatcher.ResponseData;
    }
  | { kind: 'error-status'; adapter: RequestAdapter; outcome: AttemptOutcome; reply: ErrorReply }
  | { kind: 'transport-error'; adapter: RequestAdapter; outcome: AttemptOutcome; error: unknown }
  | { kind: 'client-closed'; error: unknown };

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) {
        body.destroy();
        break;
      }
      chunks.push(buffer);
    }
  } catch {
    // A body that breaks while an error is read: answer with what arrived.
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

function ignoreError(): void {
  // The abandoned attempt's body: its abort error is expected.
}

type NoOutput =
  | { kind: 'transport-error'; outcome: AttemptOutcome; error: unknown }
  | { kind: 'client-closed'; error: unknown };

/** Null once the first output came; else the failed attempt, its body aborted. */
async function waitForFirstOutput(
  response: Dispatcher.ResponseData,
  timeoutMs: number,
  abort: UpstreamAbort,
): Promise<NoOutput | null> {
  const type = response.headers['content-type'];
  const sse = typeof type === 'string' && type.toLowerCase().includes('text/event-stream');
  const first = await awaitFirstOutput(response.body, { sse, timeoutMs });
  if (first.kind === 'output') return null;
  // Destroying an unfinished body errors it (RequestAbortedError): nobody else reads it now.
  response.body.on('error', ignoreError).destroy();
  if (first.kind === 'failed' && abort.aborted)
    return { kind: 'client-closed', error: first.error };
  const code = first.kind === 'failed' ? (first.error as { code?: unknown } | null)?.code : null;
  if (first.kind === 'timeout' || code === 'UND_ERR_BODY_TIMEOUT') {
    const error = new GatewayError('TG_UPSTREAM_FIRST_OUTPUT_TIMEOUT');
    return { kind: 'transport-error', outcome: 'first_output_timeout', error };
  }
  const error = first.kind === 'failed' ? first.error : new GatewayError('TG_UPSTREAM_ERROR');
  return { kind: 'transport-error', outcome: 'no_output', error };
}

const NO_BODY = Buffer.alloc(0);

export async function attemptUpstream(
  dependencies: AttemptDependencies,
  input: AttemptInput,
): Promise<AttemptResult> {
  const { request, attempts, context, upstream, model } = input;
  const adapter = input.adapter.forUpstream?.(upstream) ?? input.adapter;
  const upstreamModel = model === null ? null : (upstream.modelOverrides[model] ?? null);
  const parts = adapter.buildUpstream(context, upstreamModel);
  const provider = dependencies.providers[upstream.provider.kind];
  const call: ProviderCall = {
    platform: upstream.platform,
    method: request.method,
    path: parts.path,
    // Node joins repeated request headers into one string (set-cookie aside, never forwarded).
    headers: headersForUpstream(request.headers) as Record<string, string>,
    body: parts.body ?? NO_BODY,
    stream: adapter.isStream(context),
    model: upstreamModel ?? model,
    adapter,
  };
  const abort = new UpstreamAbort();
  attempts.abort = abort;
  let prepared: PreparedCall;
  try {
    prepared = await provider.prepare(call, upstream);
  } catch (error) {
    return { kind: 'transport-error', adapter, outcome: 'connect_error', error };
  }
  input.trace?.send(prepared.origin, prepared.headers);
  attempts.upstream = upstream.name;
  attempts.upstreamModel = call.model;
  attempts.stream = call.stream;
  attempts.price =
    upstream.priceOverrides === null
      ? null
      : priceByUpstream({
          admitted: input.price,
          overrides: upstream.priceOverrides,
          model,
          upstreamModel,
        });
  // The response closed already (during the credential fetch): nothing is sent upstream.
  if (input.record.closed) abort.abort();
  // Only upstreams with `responsesWebSocket` look further: nothing more for any other call.
  const { websockets } = dependencies;
  const socketed =
    upstream.responsesWebSocket && websockets !== undefined
      ? await attemptUpstreamWebsocket({
          websockets,
          connection: request.headers[CONNECTION_HEADER],
          call,
          upstream,
          abort,
          timeouts: { headersMs: dependencies.pools.timeouts.headersTimeoutMs, ...input.timeouts },
        })
      : null;
  if (socketed !== null && socketed.kind !== 'success') {
    return socketed.kind === 'client-closed' ? socketed : { ...socketed, adapter };
  }
  let response: Dispatcher.ResponseData;
  if (socketed !== null) {
    response = socketed.response;
  } else {
    try {
      response = await dependencies.pools.get(prepared.origin).request({
        path: prepared.path,
        method: prepared.method,
        headers: prepared.headers,
        body: prepared.body.length === 0 ? null : prepared.body,
        signal: abort,
        headersTimeout: dependencies.pools.timeouts.headersTimeoutMs,
        bodyTimeout: input.timeouts.idleMs,
      });
    } catch (error) {
      if (abort.aborted) return { kind: 'client-closed', error };
      return { kind: 'transport-error', adapter, outcome: outcomeOfTransportError(error), error };
    }
  }
  if (response.statusCode < 400) {
    const decoder = provider.decodeReply(call, {
      status: response.statusCode,
      contentType: headerText(response.headers['content-type']),
    });
    if (decoder !== null) response = decodeProviderReply(response, decoder);
    if (input.timeouts.firstOutputMs > 0 && attempts.stream) {
      const failed = await waitForFirstOutput(response, input.timeouts.firstOutputMs, abort);
      if (failed !== null) return failed.kind === 'client-closed' ? failed : { ...failed, adapter };
    }
    return { kind: 'success', upstream, adapter, response };
  }
  const bytes = await readBounded(response.body, dependencies.maxErrorBodyBytes);
  const refused = { status: response.statusCode, headers: response.headers, bytes };
  const answered = answerInsteadOfError(provider, call, refused);
  if (answered !== null) return { kind: 'success', upstream, adapter, response: answered };
  const reply = mapProviderError(provider, call, refused);
  return {
    kind: 'error-status',
    adapter,
    outcome: outcomeOfStatus(reply.status),
    reply: { ...reply, json: parseJson(reply.bytes) },
  };
}

function headerText(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? (value[0] ?? '') : value;
}
