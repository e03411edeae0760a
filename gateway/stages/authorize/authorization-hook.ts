/**
 * The authorize stage: the key checks (authorize-request.ts: missing, unknown, no group, platform,
 * suspended, expired), which need only the headers, run as the last onRequest hook of every
 * Tollgate route, so a refused caller is answered before its body is read (and a multi-megabyte
 * upload by a stranger is never buffered). Its result, `Authorized` (the key's policy), goes on
 * the request record for the admit stage (admission-hook.ts).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  authorizeFromCache,
  authorizeKeyHash,
  type AuthorizeDependencies,
  type AuthorizedPolicy,
} from './authorize-request.js';
import type { RequestRecord } from '../request/request-record.js';
import '../request/route-config.js';

export interface AuthorizationDependencies extends AuthorizeDependencies {
  clock: () => number;
}

function recordAuthorized(record: RequestRecord, policy: AuthorizedPolicy): void {
  record.authorized = policy;
  record.platform = policy.group.platform;
}

export function createAuthorizationHook(dependencies: AuthorizationDependencies) {
  // Fastify's callback form: a key whose policy is cached is decided in this turn, with no promise;
  // only a policy read from the store waits.
  return function authorize(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    const { profile } = request.routeOptions.config;
    if (profile === undefined) {
      done();
      return;
    }
    const record = request.tollgate;
    record.platform = profile.platforms.length === 1 ? (profile.platforms[0] ?? null) : null;
    const input = {
      profile,
      carrier: { headers: request.headers, query: request.query as Record<string, unknown> },
      now: dependencies.clock(),
    };
    let decided: AuthorizedPolicy | string;
    try {
      decided = authorizeFromCache(dependencies, input);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (typeof decided !== 'string') {
      recordAuthorized(record, decided);
      done();
      return;
    }
    authorizeKeyHash(dependencies, input, decided).then(
      (policy) => {
        recordAuthorized(record, policy);
        done();
      },
      (error: unknown) => {
        done(error as Error);
      },
    );
  };
}

type OnRequest = ReturnType<typeof createAuthorizationHook>;

/** Appends the hook after a route's own onRequest hooks (unknown-path checks come first). */
export function appendAuthorization(route: RouteOptions, hook: OnRequest): void {
  if (route.config?.profile === undefined) return;
  const own = route.onRequest;
  const hooks = own === undefined ? [] : Array.isArray(own) ? [...own] : [own];
  route.onRequest = [...hooks, hook];
}
