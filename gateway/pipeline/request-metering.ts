/**
 * What metering keeps per request, beside `RequestState`: the price decided at admission and the
 * reply meter's outcome promise (set once the upstream answered with a success status).
 */
import type { RequestPrice } from '../billing/price-request.js';
import type { UsageReport } from '../metering/usage-report.js';
import type { RequestState } from './request-state.js';

/** How the reply ended: normally, because the caller went away, or because the upstream failed. */
export type ReplyEnd = 'ended' | 'client-closed' | 'upstream-failed';

export interface MeteredReply {
  report: UsageReport;
  end: ReplyEnd;
  bytes: number;
  overflowed: boolean;
}

export interface RequestMetering {
  /** Null for free endpoints (token counting) and requests that never reached pricing. */
  price: RequestPrice | null;
  /** Input tokens estimated from the request body, for replies without usage. */
  estimatedInputTokens: number;
  reply: Promise<MeteredReply> | null;
}

const meterings = new WeakMap<RequestState, RequestMetering>();

export function requestMetering(state: RequestState): RequestMetering {
  let metering = meterings.get(state);
  if (metering === undefined) {
    metering = { price: null, estimatedInputTokens: 0, reply: null };
    meterings.set(state, metering);
  }
  return metering;
}
