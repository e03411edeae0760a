/**
 * Per-request gateway state: created by the first onRequest hook (app.ts), filled in by each stage
 * (key, admission, forward, meter) and read once more when the response closes and the request is
 * settled (finish-request.ts). When the client goes away before admission returned, the close
 * handler leaves `settleLate` for the admission stage to call. Nothing else about a request is kept
 * anywhere else.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { RequestPrice } from '../../billing/price-request.js';
import type { AdmittedRequest } from '../admit/admit-request.js';
import type { AuthorizedPolicy } from '../authorize/authorize-request.js';
import type { ForwardContext } from '../../spec/protocol-adapter.js';
import type { MeteredRelay } from '../reply/relay-metered-reply.js';
import type { RouteProfile } from './route-profile.js';
import type { UpstreamAbort } from '../forward/upstream-abort.js';

export interface ForwardOutcome {
  upstream: string | null;
  upstreamModel: string | null;
  status: number;
  stream: boolean;
  timeToFirstByteMs: number | null;
  /** Upstream attempts made (failover); 0 when nothing was sent upstream. */
  attempts: number;
}

/** What metering keeps: the price decided at admission and the reply meter. */
export interface RequestMetering {
  /** Null for free endpoints (token counting) and requests that never reached pricing. */
  price: RequestPrice | null;
  /** Input tokens estimated from the request body, for replies without usage. */
  estimatedInputTokens: number;
  /**
   * The reply meter, set once the upstream answered with a success status; a relayed reply also
   * tells what it delivered so far (a JSON document read whole does not).
   */
  relay:
    | (Pick<MeteredRelay, 'outcome' | 'clientClosed'> & Partial<Pick<MeteredRelay, 'delivered'>>)
    | null;
}

export interface RequestState {
  requestId: string;
  /** The matched route's profile; null for unknown routes. */
  profile: RouteProfile | null;
  callerIp: string;
  /** The route's platform (or the key's, once known); null for unknown routes. */
  platform: Platform | null;
  /** The Tollgate code of the error this request was answered with, if any. */
  errorCode: string | null;
  key: AuthorizedPolicy | null;
  context: ForwardContext | null;
  admitted: AdmittedRequest | null;
  metering: RequestMetering;
  outcome: ForwardOutcome;
  /** The upstream whose concurrency slot this request holds. */
  upstreamSlot: string | null;
  /** Aborts the upstream request under way; the forward stage sets it. */
  upstreamAbort: UpstreamAbort | null;
  /** The response has closed (finished, or the client went away); set by the close handler. */
  closed: boolean;
  /** Counted in the request metrics and logged: once, at the response's end or its early close. */
  counted: boolean;
  /**
   * Set by the close handler when the client went away before admission returned: settles the
   * request (once). The admission stage calls it as soon as it has admitted (finish-request.ts).
   */
  settleLate: (() => void) | null;
}

export function newRequestState(init: {
  requestId: string;
  profile: RouteProfile | null;
  callerIp: string;
}): RequestState {
  // Every field written out in one literal: one object shape for every request, no spread copy.
  return {
    requestId: init.requestId,
    profile: init.profile,
    callerIp: init.callerIp,
    platform: null,
    errorCode: null,
    key: null,
    context: null,
    admitted: null,
    metering: { price: null, estimatedInputTokens: 0, relay: null },
    outcome: {
      upstream: null,
      upstreamModel: null,
      status: 0,
      stream: false,
      timeToFirstByteMs: null,
      attempts: 0,
    },
    upstreamSlot: null,
    upstreamAbort: null,
    closed: false,
    counted: false,
    settleLate: null,
  };
}
