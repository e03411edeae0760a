/** Fastify typing for Tollgate routes: the route's profile and adapter, and the request state. */
import type { RequestAdapter } from '../../spec/protocol-adapter.js';
import type { RequestState } from './request-state.js';
import type { RouteProfile } from './route-profile.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    profile?: RouteProfile;
    adapter?: RequestAdapter;
  }
  interface FastifyRequest {
    tollgate: RequestState;
  }
}

export type { RequestAdapter, RequestState, RouteProfile };
