/** What the admit stage hands on: the store's admission, the request body's context, its price. */
import type { RequestPrice } from '../../billing/price-request.js';
import type { ForwardContext } from '../../spec/protocol-adapter.js';
import type { AdmittedRequest } from './admit-request.js';

export interface Admitted {
  request: AdmittedRequest;
  /** The parsed request (path, body, JSON) the forward stage builds the upstream request from. */
  context: ForwardContext;
  /** Null for free endpoints (token counting). */
  price: RequestPrice | null;
  /** Input tokens estimated from the request body, for replies without usage. */
  estimatedInputTokens: number;
}
