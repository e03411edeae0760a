/**
 * Per-request guards: the session from the cookie (idle and absolute expiry, refreshed as it is
 * used), the CSRF token header and the Origin check on state-changing calls.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ConsoleError } from '../console-error.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { sessionSchema, type Session, type SessionStore } from './session-store.js';

export const CSRF_HEADER = 'x-csrf-token';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
  now: () => number;
}

export function sessionTtl(session: Session, policy: SessionPolicy): number {
  const now = policy.now();
  return Math.max(1, Math.min(policy.idleMs, session.createdAt + policy.maxMs - now));
}

export async function loadSession(
  request: FastifyRequest,
  options: { store: SessionStore; policy: SessionPolicy },
): Promise<{ id: string; session: Session }> {
  const id = readCookie(request.headers.cookie, SESSION_COOKIE);
  if (id === undefined) throw new ConsoleError('UNAUTHENTICATED', 'Sign in first.');
  const parsed = sessionSchema.safeParse(await options.store.get('session', id));
  const expired = new ConsoleError(
    'UNAUTHENTICATED',
    'Your session has ended (expired or signed out); sign in again.',
  );
  if (!parsed.success) throw expired;
  const session = parsed.data;
  const { now, idleMs, maxMs } = options.policy;
  const time = now();
  if (time - session.lastSeenAt >= idleMs || time - session.createdAt >= maxMs) {
    await options.store.delete('session', id);
    throw expired;
  }
  if (time - session.lastSeenAt > 5_000) {
    const touched = { ...session, lastSeenAt: time };
    await options.store.set({
      kind: 'session',
      id,
      value: touched,
      ttlMs: sessionTtl(touched, options.policy),
    });
    return { id, session: touched };
  }
  return { id, session };
}

export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * A state-changing call must come from a permitted origin (the console's public origins, never
 * derived from the request's own Host header, which the caller chooses). Without an Origin header,
 * Fetch Metadata must not say cross-site.
 */
export function checkOrigin(request: FastifyRequest, permitted: readonly string[]): void {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!permitted.includes(origin)) {
      throw new ConsoleError(
        'CSRF_REJECTED',
        `Requests from origin ${origin} are not accepted: it is not one of the console's public origins (--public-origins).`,
      );
    }
    return;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ConsoleError('CSRF_REJECTED', 'Cross-site requests are not accepted.');
  }
}

export function checkCsrfToken(request: FastifyRequest, session: Session): void {
  const header = request.headers[CSRF_HEADER];
  const given = Buffer.from(typeof header === 'string' ? header : '');
  const expected = Buffer.from(session.csrfToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ConsoleError(
      'CSRF_REJECTED',
      `Missing or wrong ${CSRF_HEADER} header: send the csrfToken from /api/v1/me.`,
    );
  }
}
