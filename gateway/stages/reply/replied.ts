/**
 * What the reply stage leaves for the request's end: the reply's meter. A relayed reply also tells
 * what it delivered so far (lease renewals carry it); a JSON document read whole does not.
 */
import type { MeteredRelay } from './relay-metered-reply.js';

export type Replied = Pick<MeteredRelay, 'outcome' | 'clientClosed'> &
  Partial<Pick<MeteredRelay, 'delivered'>>;
