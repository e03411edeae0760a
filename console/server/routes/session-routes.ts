/** Sign-in (local users, OIDC), sign-out and who am I. */
import { z } from 'zod';
import { defineRoute, session, type ApiRoute } from '../api/api-route.js';
import { checkLocalPassword, readLocalUsers } from '../auth/local-users.js';
import { OIDC_COOKIE, readCookie, serializeCookie } from '../auth/cookies.js';
import { readAccess } from '../auth/read-access.js';
import { accessSchema, authMethodsSchema, meSchema } from '../auth/session-schemas.js';
import { clientAddress } from '../auth/read-client.js';
import { newOpaqueId, pendingOidcSchema } from '../auth/session-store.js';
import { clearSessionCookie, cookieSecure, startSession } from '../auth/start-session.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError } from '../console-error.js';

const signInSchema = z.strictObject({
  username: z.string().min(1).max(253),
  password: z.string().min(1).max(1024),
});

const returnToSchema = z.strictObject({
  returnTo: z
    .string()
    .regex(/^\/(?!\/)[^\s\\]*$/, 'a path on this console')
    .max(2000)
    .optional(),
});

const accessQuerySchema = z.strictObject({
  namespace: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'a namespace name')
    .max(63)
    .optional(),
});

const callbackSchema = z.looseObject({ state: z.string().optional(), code: z.string().optional() });

export function sessionRoutes(context: ConsoleContext): ApiRoute[] {
  const me = (value: {
    username: string;
    groups: string[];
    method: 'local' | 'oidc';
    csrfToken: string;
    createdAt: number;
  }) => ({
    username: value.username,
    groups: value.groups,
    method: value.method,
    csrfToken: value.csrfToken,
    expiresTime: new Date(value.createdAt + context.policy.maxMs).toISOString(),
  });
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/methods',
      summary: 'The sign-in methods this console offers.',
      tag: 'Session',
      public: true,
      response: authMethodsSchema,
      handler: () => {
        const oidc = context.config.oidc;
        return Promise.resolve({
          local: context.config.localUsers,
          oidc: context.oidc !== undefined,
          oidcName:
            context.oidc === undefined || oidc === undefined
              ? null
              : (oidc.displayName ?? new URL(oidc.issuer).host),
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/session',
      summary:
        'Sign in with a local user; sets the session cookie. Failed attempts are rate limited (429).',
      tag: 'Session',
      public: true,
      body: signInSchema,
      response: meSchema,
      handler: async (call) => {
        if (!context.config.localUsers) {
          throw new ConsoleError('SIGN_IN_UNAVAILABLE', 'Local users are turned off; use OIDC.');
        }
        const started = context.limiter.start({
          username: call.body.username,
          address: clientAddress(call.request, context.trustedProxies),
        });
        let user;
        try {
          const users = await readLocalUsers(context.kube, {
            namespace: context.config.operatorNamespace,
            name: context.config.usersSecret,
          });
          user = await checkLocalPassword(users, call.body);
        } catch (error) {
          started.abandoned();
          throw error;
        }
        if (user === undefined) {
          call.request.log.info({ username: call.body.username }, 'failed console sign-in');
          throw new ConsoleError('UNAUTHENTICATED', 'Wrong username or password.');
        }
        started.succeeded();
        const created = await startSession(call, context, { ...user, method: 'local' });
        call.request.log.info({ username: user.username }, 'console sign-in');
        return me(created);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/session',
      summary: 'Sign out: the session is deleted on the server and the cookie cleared.',
      tag: 'Session',
      response: z.object({ signedOut: z.literal(true) }),
      handler: async (call) => {
        if (call.sessionId !== undefined) await context.sessions.delete('session', call.sessionId);
        clearSessionCookie(call, context);
        return { signedOut: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/me',
      summary: 'The signed-in user, groups, and the CSRF token for state-changing calls.',
      tag: 'Session',
      response: meSchema,
      handler: (call) => Promise.resolve(me(session(call).session)),
    }),
    defineRoute<undefined, z.output<typeof accessQuerySchema>>({
      method: 'GET',
      path: '/me/access',
      summary:
        'What the signed-in user may do (SelfSubjectAccessReview as the user): list, create, update, delete on Groups, Upstreams, Accounts and, with `namespace`, its ApiKeys; `administer` when any Group, Upstream or Account may be changed.',
      tag: 'Session',
      query: accessQuerySchema,
      response: accessSchema,
      handler: (call) => readAccess(session(call).kube, call.query.namespace),
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/oidc/login',
      summary: 'Starts an OIDC sign-in (authorization code with PKCE): redirects to the provider.',
      tag: 'Session',
      public: true,
      query: returnToSchema,
      successStatus: 302,
      handler: async (call) => {
        if (context.oidc === undefined) {
          throw new ConsoleError('SIGN_IN_UNAVAILABLE', 'OIDC sign-in is not configured.');
        }
        const started = await context.oidc.start();
        const id = newOpaqueId();
        await context.sessions.set({
          kind: 'oidc',
          id,
          ttlMs: 600_000,
          value: {
            codeVerifier: started.codeVerifier,
            state: started.state,
            nonce: started.nonce,
            returnTo: call.query.returnTo ?? '/',
          },
        });
        const secure = cookieSecure(call.request, context);
        call.reply.header('set-cookie', serializeCookie(OIDC_COOKIE, id, { secure, maxAge: 600 }));
        return call.reply.redirect(started.url, 302);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/oidc/callback',
      summary: 'The OIDC redirect URI: completes the sign-in and redirects into the console.',
      tag: 'Session',
      public: true,
      query: callbackSchema,
      successStatus: 302,
      handler: async (call) => {
        if (context.oidc === undefined) {
          throw new ConsoleError('SIGN_IN_UNAVAILABLE', 'OIDC sign-in is not configured.');
        }
        const id = readCookie(call.request.headers.cookie, OIDC_COOKIE);
        const pending = pendingOidcSchema.safeParse(
          id === undefined ? undefined : await context.sessions.get('oidc', id),
        );
        if (id === undefined || !pending.success) {
          throw new ConsoleError('UNAUTHENTICATED', 'No sign-in in progress; start again.');
        }
        await context.sessions.delete('oidc', id);
        const redirect = new URL(context.config.oidc?.redirectUrl ?? 'http://invalid/');
        const query = call.request.url.split('?')[1] ?? '';
        const user = await context.oidc.finish(
          new URL(`${redirect.href.split('?')[0] ?? ''}?${query}`),
          pending.data,
        );
        await startSession(call, context, { ...user, method: 'oidc' });
        call.request.log.info({ username: user.username }, 'console sign-in (oidc)');
        call.reply.header('set-cookie', [
          call.reply.getHeader('set-cookie') as string,
          serializeCookie(OIDC_COOKIE, '', {
            secure: cookieSecure(call.request, context),
            maxAge: 0,
          }),
        ]);
        return call.reply.redirect(pending.data.returnTo, 302);
      },
    }),
  ];
}
