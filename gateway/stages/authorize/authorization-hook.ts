/**
 * The authorize stage: the key checks (authorizeRequest: missing, unknown, no group, platform,
 * suspended, expired), which need only the headers, run as the last onRequest hook of every
 * Tollgate route, so a refused caller is answered before its body is read (and a multi-megabyte
 * upload by a stranger is never buffered). Its result, `Authorized` (the key's policy), goes on
 * the request record for the admit stage (admission-hook.ts).
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import { authorizeRequest, type AuthorizeDependencies } from './authorize-request.js';
import '../request/route-config.js';

export interface AuthorizationDependencies extends AuthorizeDependencies {
  clock: () => number;
}

export function createAuthorizationHook(dependencies: AuthorizationDependencies) {
  return async function authorize(request: FastifyRequest): Promise<void> {
    const { profile } = request.routeOptions.config;
    if (profile === undefined) return;
    const record = request.tollgate;
    record.platform = profile.platforms.length === 1 ? (profile.platforms[0] ?? null) : null;

    const policy = await authorizeRequest(dependencies, {
      profile,
      carrier: { headers: request.headers, query: request.query as Record<string, unknown> },
      now: dependencies.clock(),
    });
    record.authorized = policy;
    record.platform = policy.group.platform;
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
