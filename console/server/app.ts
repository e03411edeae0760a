/**
 * The console server: `build(config, parts)` returns the fastify app (listening is the caller's).
 * It signs people in (local users, OIDC), keeps server-side sessions, checks CSRF on state-changing
 * calls, and serves the console API under /api/v1 (calling Kubernetes as the signed-in user), the
 * OpenAPI document, and the web app from console/web/dist (or a placeholder page).
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import type { LedgerQueryable } from '../../ledger/ledger-database.js';
import { parseRanges } from '../../network/match-source-ranges.js';
import { connectRedisClient } from '../../store/connect-redis-client.js';
import type { ApiRoute, RouteCall } from './api/api-route.js';
import { buildOpenApi } from './api/build-openapi.js';
import { createAuditRecorder } from './audit/record-audit.js';
import {
  checkCsrfToken,
  checkOrigin,
  isSafeMethod,
  loadSession,
  type SessionPolicy,
} from './auth/guard-request.js';
import { SignInFailureLimiter } from './auth/limit-sign-in-failures.js';
import { createOidcSignIn } from './auth/oidc-sign-in.js';
import { permittedOrigins } from './auth/permitted-origins.js';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from './auth/session-store.js';
import type { ConsoleConfig } from './console-config.js';
import { DebugAccessLog } from './debug-access-log.js';
import type { ConsoleContext } from './console-context.js';
import { ConsoleError, isConsoleError, toErrorBody } from './console-error.js';
import { KubeApiError, KubeClient, loadKubeConfig } from './kubernetes/kube-client.js';
import { mapKubeError } from './kubernetes/map-kube-error.js';
import { ConsoleMetrics } from './metrics/console-metrics.js';
import { userKube } from './kubernetes/user-kube.js';
import { accountRoutes } from './routes/account-routes.js';
import { adminRoutes } from './routes/admin-routes.js';
import { clientConfigRoutes } from './routes/client-config-routes.js';
import { keyRoutes } from './routes/key-routes.js';
import { notifierRoutes } from './routes/notifier-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { recordRoutes } from './routes/record-routes.js';
import { memberRoutes } from './routes/member-routes.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { LiveCountersSource } from './usage/live-key-counters.js';
import { guardLedger } from './usage/guard-ledger.js';

export interface ConsoleParts {
  kubeConfig?: KubeConfig;
  /** The ledger to read usage from (local mode passes the one it opened). */
  ledger?: LedgerQueryable;
  /** The store, for the live account and key counters (local mode passes its own). */
  store?: LiveCountersSource;
  sessions?: SessionStore;
  /** Where the console's metrics are registered (default: a registry of their own). */
  registry?: Registry;
  now?: () => number;
  /** Where the log lines go (`tollgate local`'s terminal formatter); default stdout. */
  logStream?: { write(line: string): void };
}

export interface ConsoleApp extends FastifyInstance {
  consoleRoutes: readonly ApiRoute[];
  consoleMetrics: ConsoleMetrics;
}

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Tollgate console</title></head><body><h1>Tollgate console</h1>
<p>The web app is not built (console/web/dist is missing). The console API is served under
<a href="/api/v1/openapi.json">/api/v1</a>.</p></body></html>`;

const MEDIA: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function sessionStoreOf(config: ConsoleConfig): SessionStore {
  if (config.redisUrl !== undefined) {
    const redis = connectRedisClient({ url: config.redisUrl });
    redis.on('error', () => undefined);
    return new RedisSessionStore(redis);
  }
  return new MemorySessionStore(config.sessionFile);
}

export function build(config: ConsoleConfig, parts: ConsoleParts = {}): ConsoleApp {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      name: 'tollgate-console',
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrf-token"]'],
      ...(parts.logStream === undefined ? {} : { stream: parts.logStream }),
    },
    logController: new DebugAccessLog(),
    trustProxy: false,
    bodyLimit: 1024 * 1024,
    // A path fastify cannot decode (a malformed percent-encoding) never reaches a route or the
    // error handler: it is answered here, in the console's shape, on every path.
    frameworkErrors: (error, request, reply) => {
      answerFrameworkError(error, { request, reply });
    },
  });
  const metrics = new ConsoleMetrics(parts.registry ?? new Registry());
  const kube = new KubeClient(
    parts.kubeConfig ?? loadKubeConfig(config.kubeconfig),
    metrics.observeKubeCall,
  );
  const now = parts.now ?? Date.now;
  const policy: SessionPolicy = {
    idleMs: config.sessionIdleSeconds * 1000,
    maxMs: config.sessionMaxSeconds * 1000,
    now,
  };
  let origins = permittedOrigins(config, undefined);
  const context: ConsoleContext = {
    config,
    permittedOrigins: () => origins,
    trustedProxies: parseRanges(config.trustedProxies),
    kube,
    sessions: parts.sessions ?? sessionStoreOf(config),
    policy,
    limiter: new SignInFailureLimiter(config.signInFailures, now),
    ledger: parts.ledger === undefined ? undefined : guardLedger(parts.ledger, app.log),
    store: parts.store,
    audit: createAuditRecorder({ client: kube, log: app.log, now }),
    oidc: config.oidc === undefined ? undefined : createOidcSignIn(config.oidc),
    now,
  };
  const routes = [
    ...sessionRoutes(context),
    ...accountRoutes(context),
    ...keyRoutes(context),
    ...notifierRoutes(context),
    ...clientConfigRoutes(context),
    ...usageRoutes(context),
    ...recordRoutes(context),
    ...memberRoutes(context),
    ...adminRoutes(context),
  ];
  const openapi = buildOpenApi(routes);

  app.setErrorHandler((error, request, reply) => {
    const statusCode =
      typeof error === 'object' && error !== null
        ? (error as { statusCode?: unknown }).statusCode
        : undefined;
    let mapped: ConsoleError;
    // A Kubernetes answer (or an unreachable API) met outside a route's own mapping, e.g. while
    // reading the local users at sign-in, is still reported as Kubernetes' and not as a crash.
    const known = error instanceof KubeApiError ? mapKubeError(error) : error;
    if (isConsoleError(known)) mapped = known;
    else if (statusCode === 400) {
      mapped = new ConsoleError(
        'INVALID_INPUT',
        error instanceof Error ? error.message : 'invalid',
      );
    } else if (statusCode === 415) {
      mapped = new ConsoleError('INVALID_INPUT', 'Send JSON (content-type: application/json).');
    } else if (statusCode === 413) {
      mapped = new ConsoleError('INVALID_INPUT', 'The request body is too large.');
    } else {
      request.log.error({ err: error }, 'console request failed');
      mapped = new ConsoleError('INTERNAL', 'The console failed to handle the request.');
    }
    if (mapped.retryAfter !== undefined)
      void reply.header('retry-after', String(mapped.retryAfter));
    return reply.status(mapped.statusCode).send(toErrorBody(mapped));
  });

  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(SECURITY_HEADERS);
    done();
  });
  // Without configured public origins, the console's own address once it listens (port 0 too).
  app.addHook('onListen', (done) => {
    const address = app.server.address();
    if (address !== null && typeof address !== 'string') {
      origins = permittedOrigins(config, address);
    }
    done();
  });
  app.get('/api/v1/openapi.json', () => openapi);
  for (const route of routes) registerRoute(app, { route, context });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply
        .status(404)
        .send(
          toErrorBody(
            new ConsoleError(
              'NOT_FOUND',
              `No console API route ${request.method} ${request.url.split('?')[0] ?? ''}`,
            ),
          ),
        );
    }
    return serveWeb(request, { webRoot: config.webRoot, reply });
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest({
      method: request.method,
      pattern: request.routeOptions.url,
      url: request.url,
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  app.addHook('onClose', async () => {
    await context.sessions.close();
  });
  return Object.assign(app, { consoleRoutes: routes, consoleMetrics: metrics });
}

function answerFrameworkError(
  error: { code: string; message: string },
  call: { request: FastifyRequest; reply: FastifyReply },
): void {
  const mapped =
    error.code === 'FST_ERR_BAD_URL'
      ? new ConsoleError(
          'INVALID_INPUT',
          `The path has a malformed percent-encoding: ${(call.request.url.split('?')[0] ?? '').slice(0, 200)}`,
        )
      : new ConsoleError('INVALID_INPUT', error.message);
  void call.reply.headers(SECURITY_HEADERS);
  void call.reply.status(mapped.statusCode).send(toErrorBody(mapped));
}

function registerRoute(
  app: FastifyInstance,
  options: { route: ApiRoute; context: ConsoleContext },
): void {
  const { route, context } = options;
  const url = `/api/v1${route.path.replace(/\{(\w+)\}/g, ':$1')}`;
  app.route({
    method: route.method,
    url,
    handler: async (request, reply) => {
      const changing = !isSafeMethod(request.method);
      if (changing) checkOrigin(request, context.permittedOrigins());
      let session;
      let sessionId;
      if (route.public !== true) {
        const loaded = await loadSession(request, {
          store: context.sessions,
          policy: context.policy,
        });
        session = loaded.session;
        sessionId = loaded.id;
        if (changing) checkCsrfToken(request, session);
      }
      const body = parseInput(route.body, request.body, 'body');
      const query = parseInput(route.query, request.query, 'query');
      const call: RouteCall<unknown, unknown> = {
        request,
        reply,
        params: request.params as Record<string, string>,
        body,
        query,
        session,
        sessionId,
        kube:
          session === undefined
            ? undefined
            : userKube(context.kube, { username: session.username, groups: session.groups }),
      };
      const result = await route.handler(call);
      if (reply.sent) return reply;
      if (result === reply) return reply;
      return reply.status(route.successStatus ?? 200).send(result);
    },
  });
}

function parseInput(schema: ApiRoute['body'], value: unknown, where: 'body' | 'query'): unknown {
  if (schema === undefined) return undefined;
  const input =
    where === 'query' && typeof value === 'object' && value !== null ? { ...value } : value;
  const result = schema.safeParse(input ?? (where === 'query' ? {} : undefined));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  throw new ConsoleError(
    'INVALID_INPUT',
    `${where}${field === '' ? '' : ` field ${field}`}: ${issue?.message ?? 'invalid'}`,
    field === '' ? {} : { field },
  );
}

function serveWeb(
  request: FastifyRequest,
  options: { webRoot: string | undefined; reply: FastifyReply },
) {
  const candidates =
    options.webRoot === undefined
      ? [
          join(import.meta.dirname, '..', 'web', 'dist'),
          join(import.meta.dirname, '..', '..', '..', 'console', 'web', 'dist'),
        ]
      : [options.webRoot];
  const root = resolve(
    candidates.find((candidate) => existsSync(join(candidate, 'index.html'))) ??
      candidates[0] ??
      '.',
  );
  const index = join(root, 'index.html');
  if (!existsSync(index)) return options.reply.type('text/html; charset=utf-8').send(PLACEHOLDER);
  const path = normalize(join(root, (request.url.split('?')[0] ?? '/').replace(/^\/+/, '')));
  const file = path.startsWith(root) && existsSync(path) && extname(path) !== '' ? path : index;
  return options.reply
    .type(MEDIA[extname(file)] ?? 'application/octet-stream')
    .send(readFileSync(file));
}
