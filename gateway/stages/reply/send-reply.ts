/**
 * The reply stage: sends the caller the upstream answer the forward stage chose (`Forwarded`), one
 * way for every kind: a status, the upstream's headers for the client, and a body.
 *
 * - An error status: answered in the caller's protocol (answer-error-status.ts).
 * - A success that is one JSON document: read whole, metered and translated once, sent as one
 *   buffer (read-whole-reply.ts); one too large to hold goes on as a relay. A body that breaks
 *   mid-way is answered as an upstream failure in the caller's protocol (nothing was sent yet).
 * - A stream: relayed and metered as it comes (relay-metered-reply.ts), written by the relay to the
 *   response itself: its status and headers are set just before the first byte, and the reply is
 *   then taken from fastify (`reply.hijack()`; its response listeners, the access log's line and
 *   the request's end still see the response finish or close). A failure before any byte with no
 *   error frame in the caller's protocol is answered as an error instead. A translated reply that
 *   is not a stream is complete only at its end, and is sent then.
 *
 * The serving attempt is the only one billed: its meter goes on the record (`record.replied`)
 * before the first byte is read, so the request's end can end it when the client goes away.
 */
import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamWireFormat, UsageReaders } from '../../spec/protocol-adapter.js';
import type { CaptureReplyBudget } from '../../capture/capture-reply-budget.js';
import { ReplyCollector, replyCollectorLimit } from '../../capture/reply-collector.js';
import type { UpstreamMetrics } from '../../metrics/upstream-metrics.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import { headersForClient } from '../forward/filter-headers.js';
import type { ForwardCall, Forwarded } from '../forward/forward-upstream.js';
import { mapTransportError } from '../forward/map-upstream-failure.js';
import { answerErrorStatus } from './answer-error-status.js';
import { coalesceFirstWrites } from './coalesce-first-writes.js';
import { planReply, type ReplyPlan } from './plan-reply.js';
import {
  ClientClosedError,
  readWholeReply,
  type WholeReplyRead,
  type WholeReplyReader,
} from './read-whole-reply.js';
import type { RequestRecord } from '../request/request-record.js';
import {
  relayMeteredReply,
  replyFraming,
  type MeteredRelay,
  type MeteredReply,
} from './relay-metered-reply.js';

export interface ReplyDependencies {
  /** The usage reader of each wire format (built by the composition root). */
  usageReaders: UsageReaders;
  metrics?: UpstreamMetrics;
  /** The bytes all captured replies in flight may hold together (capture-reply-budget.ts). */
  captureReplyBudget: CaptureReplyBudget;
}

export interface ReplyCall extends ForwardCall {
  reply: FastifyReply;
  /** The wire format the caller reads (after any translation): a captured stream's reassembler. */
  replyFormat?: UpstreamWireFormat;
}

/** The collector of the reply's bytes when the key's responses are captured; else undefined. */
function replyCollector(
  dependencies: ReplyDependencies,
  call: ReplyCall,
): ReplyCollector | undefined {
  const capture = call.admitted.request.policy.capture;
  if (capture?.responses !== true || call.replyFormat === undefined) return undefined;
  const collector = new ReplyCollector(
    call.replyFormat,
    replyCollectorLimit(capture.maxBytes),
    dependencies.captureReplyBudget,
  );
  call.record.capturedReply = collector;
  return collector;
}

type Served = Extract<Forwarded, { kind: 'success' }>;

/** A success body up to this size is read whole (the meter's parse limit). */
const WHOLE_REPLY_LIMIT_BYTES = 16 * 1024 * 1024;

/** The one way a reply is sent: after `reply.code(status)`, the upstream's headers and a body. */
function send(
  reply: FastifyReply,
  headers: Dispatcher.ResponseData['headers'],
  body: Buffer,
): FastifyReply {
  return reply.headers(headersForClient(headers)).send(body);
}

/**
 * A relayed reply's headers, as fastify sets them for a stream it sends (its own, then the
 * upstream's for the client over them), just before the first byte. Before a first write they go
 * in one `writeHead` with one object, not a `setHeader` per header (each validates, lower-cases and
 * stores its name again); nothing sets a header between this and that write, which the head leaves
 * with. A reply that ends at once (`ending`) has its headers set instead, so Node still gives its
 * length (`content-length: 0` for an empty stream) rather than chunked framing.
 */
function writeHeaders(
  reply: FastifyReply,
  headers: Dispatcher.ResponseData['headers'],
  ending: boolean,
): void {
  const raw = reply.raw;
  const all = reply.getHeaders();
  const forClient = headersForClient(headers);
  for (const name in forClient) all[name] = forClient[name];
  if (!ending) {
    raw.writeHead(reply.statusCode, all as OutgoingHttpHeaders);
    return;
  }
  for (const name in all) raw.setHeader(name, all[name] as string | string[]);
}

function servedOutcome(metered: MeteredReply): 'stream_error' | 'ok' {
  return metered.end === 'upstream-failed' ? 'stream_error' : 'ok';
}

/** Counts the serving attempt once its reply is metered. */
function countServed(
  dependencies: ReplyDependencies,
  upstream: ResolvedUpstream,
  outcome: Promise<MeteredReply>,
): void {
  const { metrics } = dependencies;
  if (metrics === undefined) return;
  void outcome.then((metered) => {
    metrics.attempts.inc({
      upstream: upstream.name,
      platform: upstream.platform,
      outcome: metered.idleTimedOut === true ? 'stream_idle_timeout' : servedOutcome(metered),
    });
  });
}

/** Starts reading a JSON document whole; one too large to hold goes on as a relay. */
function startWholeRead(served: Served, plan: ReplyPlan): WholeReplyReader {
  return readWholeReply({
    body: served.response.body,
    reader: plan.reader,
    translator: plan.translator,
    limitBytes: WHOLE_REPLY_LIMIT_BYTES,
    // Named, not `...rest`: V8 copies rest properties in its runtime, the slow way, on every call.
    relay: {
      stream: plan.stream,
      contentType: plan.contentType,
      streamError: plan.streamError,
      onUpstreamError: plan.onUpstreamError,
      collect: plan.collect,
    },
  });
}

/** The whole read's result; a body that broke is answered as an upstream failure instead. */
async function finishWholeRead(
  record: RequestRecord,
  whole: WholeReplyReader,
  plan: ReplyPlan,
): Promise<WholeReplyRead> {
  try {
    return await whole.read;
  } catch (error) {
    if (error instanceof ClientClosedError) throw new GatewayError('TG_CLIENT_CLOSED');
    plan.onUpstreamError(error);
    // Nothing was sent yet: the caller gets (and the record keeps) the error status instead.
    const failure = mapTransportError(error);
    if (record.attempts !== null) record.attempts.status = failure.statusCode;
    throw failure;
  }
}

async function sendSuccess(
  dependencies: ReplyDependencies,
  call: ReplyCall,
  served: Served,
): Promise<FastifyReply> {
  const { reply, record } = call;
  const { response } = served;
  const plan = planReply(dependencies.usageReaders, call, served);
  // Set only when capturing: the plan keeps its shape for every other call.
  const collect = replyCollector(dependencies, call);
  if (collect !== undefined) plan.collect = collect;
  let relay: MeteredRelay;
  if (replyFraming(plan) === 'json') {
    const whole = startWholeRead(served, plan);
    // Told when the response closes (the request's end): ends the meter if unended.
    record.replied = whole;
    countServed(dependencies, served.upstream, whole.outcome);
    const read = await finishWholeRead(record, whole, plan);
    if (read.kind === 'whole') {
      reply.code(plan.translator?.status?.() ?? response.statusCode);
      plan.collect?.add(read.body);
      return send(reply, response.headers, read.body);
    }
    relay = read.relay;
  } else {
    relay = relayMeteredReply({
      body: response.body,
      // Named, not `...plan`: a spread of the plan took V8's slow runtime copy on every call
      // (1.3% of a streamed call's gateway CPU in profiles).
      reader: plan.reader,
      stream: plan.stream,
      contentType: plan.contentType,
      translator: plan.translator,
      streamError: plan.streamError,
      onUpstreamError: plan.onUpstreamError,
      collect: plan.collect,
    });
    record.replied = relay;
    countServed(dependencies, served.upstream, relay.outcome);
  }
  if (plan.translator !== null && !plan.stream) {
    // A translated whole reply is complete only at its end, and may carry another status.
    const chunks: Buffer[] = [];
    const whole = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    await relay.writeTo(whole);
    await finished(whole);
    reply.code(plan.translator.status?.() ?? response.statusCode);
    return send(reply, response.headers, Buffer.concat(chunks));
  }
  const raw = reply.raw;
  reply.code(response.statusCode);
  coalesceFirstWrites(raw);
  await relay.writeTo(raw, (ending) => {
    writeHeaders(reply, response.headers, ending);
  });
  // Written by the relay (or closed by the client before any byte): fastify sends nothing more.
  reply.hijack();
  return reply;
}

export function sendReply(
  dependencies: ReplyDependencies,
  call: ReplyCall,
  forwarded: Forwarded,
): Promise<FastifyReply> | FastifyReply {
  if (forwarded.kind === 'success') return sendSuccess(dependencies, call, forwarded);
  const answer = answerErrorStatus(call.reply, call.admitted.context, forwarded);
  replyCollector(dependencies, call)?.add(answer.body);
  return send(call.reply.code(answer.status), forwarded.reply.headers, answer.body);
}
