/** Fastify typing for Tollgate routes: the route's profile and adapter, and the request's record. */
import type { RequestAdapter } from '../../spec/protocol-adapter.js';
import type { RequestRecord } from './request-record.js';
import type { RouteProfile } from './route-profile.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    profile?: RouteProfile;
    adapter?: RequestAdapter;
  }
  interface FastifyRequest {
    tollgate: RequestRecord;
  }
}

export type { RequestAdapter, RequestRecord, RouteProfile };
