/** Creating and ending sessions, and the cookie that carries the id. */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../console-context.js';
import { readCookie, serializeCookie, SESSION_COOKIE } from './cookies.js';
import { clientProtocol } from './read-client.js';
import { sessionTtl } from './guard-request.js';
import { newOpaqueId, type Session } from './session-store.js';

/** `auto`: Secure when the client used https (TLS here, or X-Forwarded-Proto from a trusted proxy). */
export function cookieSecure(request: FastifyRequest, context: ConsoleContext): boolean {
  const setting = context.config.cookieSecure;
  return setting === 'auto' ? clientProtocol(request, context.trustedProxies) === 'https' : setting;
}

export async function startSession(
  call: { request: FastifyRequest; reply: FastifyReply },
  context: ConsoleContext,
  user: { username: string; groups: readonly string[]; method: Session['method'] },
): Promise<Session> {
  const previous = readCookie(call.request.headers.cookie, SESSION_COOKIE);
  if (previous !== undefined) await context.sessions.delete('session', previous);
  const now = context.now();
  const session: Session = {
    username: user.username,
    groups: [...user.groups],
    csrfToken: randomBytes(24).toString('base64url'),
    method: user.method,
    createdAt: now,
    lastSeenAt: now,
  };
  const id = newOpaqueId();
  await context.sessions.set({
    kind: 'session',
    id,
    value: session,
    ttlMs: sessionTtl(session, context.policy),
  });
  const maxAge = Math.floor(context.policy.maxMs / 1000);
  call.reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, id, { secure: cookieSecure(call.request, context), maxAge }),
  );
  return session;
}

export function clearSessionCookie(
  call: { request: FastifyRequest; reply: FastifyReply },
  context: ConsoleContext,
): void {
  call.reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, '', { secure: cookieSecure(call.request, context), maxAge: 0 }),
  );
}
