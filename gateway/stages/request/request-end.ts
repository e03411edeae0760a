/**
 * The one owner of a request's end. `openRequest` creates the request's record when it arrives
 * and installs its one `close` listener: Node emits `close` exactly once per response, after a
 * completed reply, after an error reply (refused, or an upstream failure), and when the client
 * goes away (during admission, during forward, mid-stream). Whatever way the request ended, that
 * listener, once:
 *
 * - ends the silence watch of its body, if fastify never read it whole (refused first);
 * - leaves the in-flight gauge and counts the request (count, duration, refusal reason, time to
 *   first byte) with the status it was sent, or 499 when nothing was; a call the client closed
 *   first also gets its access-log line here (`request closed by client`; a completed call's line
 *   is fastify's `request completed`, access-log.ts);
 * - aborts the upstream attempt under way if the reply did not finish, and ends the reply meter
 *   as `client-closed` unless it ended already;
 * - settles the admitted request (settle-ended-request.ts): the upstream slot held goes back
 *   first (hold-upstream-slot.ts), and the store's confirmation ends the lease renewer's
 *   registration.
 *
 * With tracing on, the call's server span (`record.trace`, started here) ends here too: after the
 * settlement's bill for an admitted call, else at once (docs/observability.md).
 *
 * The late case: when the client goes away while the store's admission is under way, there is
 * nothing to settle yet. The end waits for `record.admission`; once the store admitted the request
 * (the admit stage then forwards nothing), it settles it as above: nothing billed, status 499,
 * reservation and slots released. Without this, the admitted request would never be settled and
 * its leases would be renewed for good.
 */
import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { resolveCallerIp } from '../../../network/resolve-caller-ip.js';
import type { AccessLog } from '../../access-log.js';
import { ERROR_CATALOGUE } from '../../errors/error-catalogue.js';
import { statusClass, type GatewayMetrics } from '../../metrics/gateway-metrics.js';
import type { SpendStore } from '../../../store/store.js';
import { settleEndedRequest, type SettleDependencies } from '../settle/settle-ended-request.js';
import { newRequestRecord, type RequestRecord } from './request-record.js';
import './route-config.js';
import type { RouteProfile } from './route-profile.js';
import type { Tracing } from '../../tracing/create-tracing.js';

/** The status a call the client closed before anything was sent is counted and settled with. */
const CLIENT_CLOSED_STATUS = ERROR_CATALOGUE.TG_CLIENT_CLOSED.status;

export interface RequestEndDependencies extends SettleDependencies {
  store: Pick<SpendStore, 'releaseUpstreamSlot'>;
  gatewayMetrics: GatewayMetrics;
  accessLog: AccessLog;
  /** Proxies whose `x-forwarded-for` names the caller. */
  trustedProxies: Parameters<typeof resolveCallerIp>[0]['trustedProxies'];
  /** Ends still running (up to the first settlement try), awaited on close. */
  pending: Set<Promise<void>>;
  /** Null when tracing is off: nothing is traced. */
  tracing: Tracing | null;
  /** Ends the silence watch of the request's body, if it is still watched (read-request-body.ts). */
  stopWatchingBody: (request: FastifyRequest) => void;
}

/** Counts an ended call, once; gives back the status it was counted with (sent, or 499). */
function countRequest(metrics: GatewayMetrics, record: RequestRecord, reply: FastifyReply): number {
  const raw = reply.raw;
  const statusCode =
    raw.writableFinished || raw.headersSent ? reply.statusCode : CLIENT_CLOSED_STATUS;
  const platform = record.platform ?? 'none';
  const labels = { platform, status_class: statusClass(statusCode) };
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, reply.elapsedTime / 1000);
  if (record.errorCode !== null) metrics.refusals.inc({ platform, reason: record.errorCode });
  const firstByteMs = record.attempts?.timeToFirstByteMs ?? null;
  if (firstByteMs !== null) metrics.timeToFirstByte.observe({ platform }, firstByteMs / 1000);
  return statusCode;
}

/** The in-flight gauge's label: the route's one platform, else `none`. */
function gaugePlatform(profile: RouteProfile | null): string {
  const platforms = profile?.platforms;
  return platforms?.length === 1 ? (platforms[0] ?? 'none') : 'none';
}

/** Settles the admitted request; tracked in `pending` until the first store try. */
function settle(
  ends: RequestEndDependencies,
  record: RequestRecord,
  log: FastifyBaseLogger,
): Promise<void> {
  const running = settleEndedRequest(ends, record, log);
  ends.pending.add(running);
  void running.finally(() => ends.pending.delete(running));
  return running;
}

/** The request's one `close` listener (see the top of the file). */
function endRequest(
  ends: RequestEndDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const record = request.tollgate;
  record.closed = true;
  ends.stopWatchingBody(request);
  const completed = reply.raw.writableFinished;
  ends.gatewayMetrics.inFlight.leave(gaugePlatform(record.profile));
  const counted = countRequest(ends.gatewayMetrics, record, reply);
  if (!completed) {
    ends.accessLog.requestClosed(request, reply, counted);
    record.attempts?.abort?.abort();
  }
  record.replied?.clientClosed();
  if (record.admitted !== null) {
    // Requests answered by the gateway itself (no upstream status) record the status it sent.
    record.gatewayStatus = reply.statusCode;
    const settled = settle(ends, record, reply.log);
    record.trace?.endAfter(settled, record, counted);
    return;
  }
  record.trace?.endAfter(null, record, counted);
  const admission = record.admission;
  if (completed || admission === null) return;
  // The late case: the admit stage's own wait on this promise runs first and records `admitted`.
  void admission.then(
    () => {
      record.gatewayStatus = CLIENT_CLOSED_STATUS;
      void settle(ends, record, reply.log);
    },
    () => undefined,
  );
}

/** Creates the request's record and installs its end: called once, when the request arrives. */
export function openRequest(
  ends: RequestEndDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
): RequestRecord {
  const config = request.routeOptions.config as FastifyContextConfig | undefined;
  const profile = config?.profile ?? null;
  const callerIp = resolveCallerIp({
    socketAddress: request.raw.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedProxies: ends.trustedProxies,
  });
  const { tracing } = ends;
  const record = newRequestRecord({
    requestId: request.id,
    profile,
    callerIp,
    // The API's routes only: health probes and unknown paths make no span.
    trace:
      tracing === null || profile === null
        ? null
        : tracing.startCall(request, request.routeOptions.url ?? '', callerIp),
  });
  ends.gatewayMetrics.inFlight.enter(gaugePlatform(profile));
  reply.raw.once('close', () => {
    endRequest(ends, request, reply);
  });
  return record;
}
