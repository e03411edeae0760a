/** Per-request gateway state, attached to the fastify request by the admission hook. */
import type { Platform } from '../../crds/schema/resources.js';
import type { AdmittedRequest } from './admit-request.js';
import type { AuthorizedPolicy } from './authorize-request.js';
import type { ForwardContext } from '../protocols/protocol-adapter.js';
import type { RouteProfile } from './route-profile.js';

export interface ForwardOutcome {
  upstream: string | null;
  upstreamModel: string | null;
  status: number;
  stream: boolean;
  timeToFirstByteMs: number | null;
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
  outcome: ForwardOutcome;
  /** The upstream whose concurrency slot this request holds. */
  upstreamSlot: string | null;
  finished: boolean;
}

export function newRequestState(init: {
  requestId: string;
  profile: RouteProfile | null;
  callerIp: string;
}): RequestState {
  return {
    ...init,
    platform: null,
    errorCode: null,
    key: null,
    context: null,
    admitted: null,
    outcome: {
      upstream: null,
      upstreamModel: null,
      status: 0,
      stream: false,
      timeToFirstByteMs: null,
    },
    upstreamSlot: null,
    finished: false,
  };
}
