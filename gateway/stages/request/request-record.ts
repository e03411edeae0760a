/**
 * The per-request record on `request.tollgate`: the typed result of each stage, each field written
 * by its own stage only, and read by the next stage and by the request's end (request-end.ts).
 * Created by the end owner when the request arrives (`openRequest`); nothing else about a request
 * is kept anywhere else.
 *
 * Who writes what:
 * - `requestId`, `profile`, `callerIp`, `closed`, `gatewayStatus`: the end (request-end.ts);
 * - `platform`, `authorized`: the authorize stage (authorization-hook.ts);
 * - `admission`, `admitted`: the admit stage (admission-hook.ts);
 * - `attempts`: the forward stage (forward-upstream.ts, attempt-upstream.ts); the reply stage only
 *   replaces its `status` when a success body broke before anything was sent (send-reply.ts);
 * - `replied`, `capturedReply`: the reply stage (send-reply.ts);
 * - `errorCode`: the error answer (app.ts `sendError`).
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ReplyCollector } from '../../capture/reply-collector.js';
import type { Admitted } from '../admit/admitted.js';
import type { AdmittedRequest } from '../admit/admit-request.js';
import type { Authorized } from '../authorize/authorize-request.js';
import type { UpstreamAttempts } from '../forward/upstream-attempts.js';
import type { Replied } from '../reply/replied.js';
import type { RouteProfile } from './route-profile.js';

export interface RequestRecord {
  requestId: string;
  /** The matched route's profile; null for unknown routes. */
  profile: RouteProfile | null;
  callerIp: string;
  /** The response has closed (finished, or the client went away). */
  closed: boolean;
  /**
   * At the end: the status of the gateway's reply (499 when the client left during admission),
   * recorded when no upstream answered.
   */
  gatewayStatus: number;
  /** The metrics label: the route's platform once the key checks began, then the key's. */
  platform: Platform | null;
  /** The key's policy, once the key checks passed. */
  authorized: Authorized | null;
  /** The store's admission under way or done; the end waits for it when the client left first. */
  admission: Promise<AdmittedRequest> | null;
  /** The admitted request, its body's context and its price. */
  admitted: Admitted | null;
  /** What the forward stage has sent upstream: attempts, the slot held, the abort. */
  attempts: UpstreamAttempts | null;
  /** The reply's meter, once an upstream success is relayed or read whole. */
  replied: Replied | null;
  /** The reply's bytes as the caller received them, when the key's calls are captured. */
  capturedReply: ReplyCollector | null;
  /** The Tollgate code of the error this request was answered with, if any. */
  errorCode: string | null;
}

export function newRequestRecord(init: {
  requestId: string;
  profile: RouteProfile | null;
  callerIp: string;
}): RequestRecord {
  // Every field written out in one literal: one object shape for every request, no spread copy.
  return {
    requestId: init.requestId,
    profile: init.profile,
    callerIp: init.callerIp,
    closed: false,
    gatewayStatus: 0,
    platform: null,
    authorized: null,
    admission: null,
    admitted: null,
    attempts: null,
    replied: null,
    capturedReply: null,
    errorCode: null,
  };
}
