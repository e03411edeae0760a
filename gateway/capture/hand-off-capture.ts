/**
 * The hand-off of a captured call, at the request's end (settle-ended-request.ts), for keys whose
 * policy carries capture settings (docs/captures.md "Hand-off"): the request body the caller sent
 * and the reply it received (a stream rebuilt as its message), each redacted and cut, handed to
 * the store in one command that leaves with the settlement. Never throws and never waits: a
 * failure is counted and logged, and the call and its usage record go on as they would without it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CaptureMetrics } from '../metrics/capture-metrics.js';
import type { ReplyReassemblers } from '../spec/reply-reassembler.js';
import type { CapturedBody, CapturedCall, CaptureSettings } from '../../store/captured-call.js';
import type { CaptureStore } from '../../store/store.js';
import type { Admitted } from '../stages/admit/admitted.js';
import { captureBody } from './capture-body.js';
import { reassembleReply } from './reassemble-reply.js';
import type { ReplyCollector } from './reply-collector.js';

const JSON_TYPE = 'application/json';
const DAY_MS = 86_400_000;

export interface CaptureDependencies {
  store: Pick<CaptureStore, 'handOffCapture'>;
  metrics: CaptureMetrics;
  reassemblers: ReplyReassemblers;
}

/** The request's parts the capture reads, at its end. */
export interface CapturedRequest {
  admitted: Admitted;
  /** The reply the caller received, when responses are captured and a reply was sent. */
  reply: ReplyCollector | null;
  streamed: boolean;
}

function responseBody(
  dependencies: CaptureDependencies,
  reply: ReplyCollector,
  settings: CaptureSettings,
): CapturedBody {
  const { body } = reassembleReply(reply, dependencies.reassemblers[reply.format]);
  const captured = captureBody(body, { maxBytes: settings.maxBytes, contentType: JSON_TYPE });
  return reply.overflowed ? { ...captured, truncated: true } : captured;
}

/** The captured call of an ended request (pure but for the reassembly's parse). */
export function buildCapturedCall(
  dependencies: CaptureDependencies,
  request: CapturedRequest,
  settings: CaptureSettings,
): CapturedCall {
  const { admitted, reply } = request;
  const admission = admitted.request;
  const { policy } = admission;
  const body = admitted.context.body;
  return {
    requestId: admission.requestId,
    namespace: policy.namespace,
    keyName: policy.name,
    keyUid: policy.keyUid,
    group: policy.group.name,
    platform: policy.group.platform,
    path: admitted.context.path,
    model: admission.model,
    streamed: request.streamed,
    at: admission.admittedAt,
    expiresAt: admission.admittedAt + settings.retentionDays * DAY_MS,
    request:
      settings.requests && body !== null
        ? captureBody(body, { maxBytes: settings.maxBytes, contentType: JSON_TYPE })
        : null,
    response:
      settings.responses && reply !== null ? responseBody(dependencies, reply, settings) : null,
  };
}

export function handOffCapture(
  dependencies: CaptureDependencies,
  request: CapturedRequest,
  log: FastifyBaseLogger,
): void {
  const settings = request.admitted.request.policy.capture;
  if (settings === undefined) return;
  const { metrics } = dependencies;
  const failed = (error: unknown): void => {
    metrics.failures.inc();
    // Name and message only: an error may carry the capture it failed on (docs/captures.md "Logs").
    const { name, message } =
      error instanceof Error ? error : { name: 'Error', message: String(error) };
    log.warn(
      { error: { name, message }, requestId: request.admitted.request.requestId },
      'capture failed',
    );
  };
  let call: CapturedCall;
  try {
    call = buildCapturedCall(dependencies, request, settings);
  } catch (error) {
    failed(error);
    return;
  }
  dependencies.store.handOffCapture(call).then((result) => {
    metrics.handedOff.inc();
    if (result.dropped > 0) metrics.dropped.inc(result.dropped);
  }, failed);
}
