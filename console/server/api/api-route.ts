/**
 * One table of console API routes: each route's method, path, schemas and handler. The table is
 * both what the app registers (input parsed by the zod schemas) and what the OpenAPI document
 * describes, so the two cannot drift.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Session } from '../auth/session-store.js';
import type { UserKube } from '../kubernetes/user-kube.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteCall<B, Q> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Record<string, string>;
  body: B;
  query: Q;
  /** Present on routes that need a session. */
  session: Session | undefined;
  /** Kubernetes as the signed-in user. */
  kube: UserKube | undefined;
  sessionId: string | undefined;
}

export interface ApiRoute<B = unknown, Q = unknown> {
  method: HttpMethod;
  /** OpenAPI style, under /api/v1: `/accounts/{namespace}/keys`. */
  path: string;
  summary: string;
  tag: 'Session' | 'Accounts' | 'Keys' | 'Notifiers' | 'Usage' | 'Admin' | 'Meta';
  /** Public routes need no session (sign-in, the OpenAPI document). */
  public?: boolean;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** The success response (documented, not enforced). */
  response?: z.ZodType;
  /** Default 200. */
  successStatus?: number;
  /** Response media type when not JSON. */
  produces?: string;
  handler(call: RouteCall<B, Q>): Promise<unknown>;
}

/** Keeps the body and query types of one route while the table holds many. */
export function defineRoute<B = undefined, Q = undefined>(route: ApiRoute<B, Q>): ApiRoute {
  return route;
}

export function session(call: RouteCall<unknown, unknown>): { session: Session; kube: UserKube } {
  if (call.session === undefined || call.kube === undefined) {
    throw new Error('route needs a session');
  }
  return { session: call.session, kube: call.kube };
}
