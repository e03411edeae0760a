/**
 * `build(options)`: the gateway as a FastifyInstance, with its store, config and clock injected.
 * `run-gateway.ts` listens and drains; tests call `build` and `listen({ port: 0 })` or `inject`.
 */
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { Registry } from 'prom-client';
import { AccessLog } from './access-log.js';
import type { AppConfig } from './gateway-config.js';
import { toGatewayError } from './errors/to-gateway-error.js';
import { loadGatewayPrices } from './billing/load-gateway-prices.js';
import type { PriceTable } from './billing/load-price-table.js';
import { createGatewayMetrics, statusClass } from './metrics/gateway-metrics.js';
import { createMeteringMetrics } from './metrics/metering-metrics.js';
import { createUpstreamMetrics } from './metrics/upstream-metrics.js';
import { createAdmissionHook } from './stages/admit/admission-hook.js';
import { createClientErrorHandler } from './stages/request/answer-client-error.js';
import {
  appendAuthorization,
  createAuthorizationHook,
} from './stages/authorize/authorization-hook.js';
import { decideErrorShape } from './stages/request/decide-error-shape.js';
import { settleOnClose, type FinishDependencies } from './stages/settle/finish-request.js';
import { parseRanges } from '../network/match-source-ranges.js';
import { redactUrl } from './stages/request/redact-url.js';
import { allowedMethods } from './stages/request/match-method-path.js';
import { createBodyReader, hasBody } from './stages/admit/read-request-body.js';
import { LeaseRenewer } from './stages/admit/renew-leases.js';
import { cacheCleanClaims } from './upstreams/cache-clean-claims.js';
import { cacheKeyPolicies } from './stages/authorize/cache-key-policies.js';
import { newRequestState } from './stages/request/request-state.js';
import type { SettlementQueue } from './stages/settle/settle-with-retry.js';
import { startSettlement } from './stages/settle/start-settlement.js';
import { resolveCallerIp } from '../network/resolve-caller-ip.js';
import { UpstreamCache } from './upstreams/resolve-upstreams.js';
import './stages/request/route-config.js';
import { UpstreamPools } from './upstreams/upstream-pools.js';
import {
  createUpstreamCredentials,
  type UpstreamCredentials,
} from './upstreams/upstream-credentials.js';
import { renderErrorBody } from './errors/render-error.js';
import { registerForwardRoutes } from './routes/register-forward-routes.js';
import { registerHealthRoutes, type HealthState } from './routes/register-health-routes.js';
import { registerModelRoutes } from './routes/register-model-routes.js';
import { registerUsageRoutes } from './routes/register-usage-routes.js';
import type { Store } from '../store/store.js';
import { GatewayError } from './errors/gateway-error.js';
import { ERROR_CATALOGUE } from './errors/error-catalogue.js';

/** The status a call the client closed before anything was sent is counted and logged with. */
const CLIENT_CLOSED_STATUS = ERROR_CATALOGUE.TG_CLIENT_CLOSED.status;

export interface BuildOptions {
  store: Store;
  config: AppConfig;
  clock?: () => number;
  random?: () => number;
  registry?: Registry;
  /** How upstream credentials are obtained; default: API keys plus Google OAuth token refresh. */
  credentials?: UpstreamCredentials;
  /** Replaces the priced reservation estimate per request (tests). */
  estimateNano?: (request: FastifyRequest) => number;
  /** The price table; default: the shipped table plus `config.priceFile`, loaded once here. */
  prices?: PriceTable;
  /** Where the log lines go (`tollgate local`'s terminal formatter); default stdout. */
  logStream?: { write(line: string): void };
}

export interface GatewayHandle {
  health: HealthState;
  registry: Registry;
  /** Admitted requests still streaming or settling. */
  inFlight(): number;
  /** Settlements waiting for the store; `drainBy` sets the shutdown deadline. */
  settlements: SettlementQueue;
}

declare module 'fastify' {
  interface FastifyInstance {
    gateway: GatewayHandle;
  }
}

export function build(options: BuildOptions): FastifyInstance {
  const { store, config } = options;
  const clock = options.clock ?? Date.now;
  const registry = options.registry ?? new Registry();
  const metrics = createGatewayMetrics(registry);
  const trustedProxies = parseRanges(config.trustedProxies);
  const health: HealthState = { draining: false };
  const newRequestId = () => `req_${randomUUID().replaceAll('-', '')}`;
  // Node cuts requests whose head or whole request is late (408); the check runs this often.
  const headersTimeout = Math.min(config.requestHeadersTimeoutMs, config.requestTimeoutMs);

  const accessLog = new AccessLog();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: {
        req: (request: { method: string; url: string }) => ({
          method: request.method,
          url: redactUrl(request.url),
        }),
      },
      ...(options.logStream === undefined ? {} : { stream: options.logStream }),
    },
    logController: accessLog,
    bodyLimit: config.bodyLimitBytes,
    genReqId: newRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    // Only the request's arrival is timed: long streamed responses are never cut by these.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    clientErrorHandler: createClientErrorHandler({
      newRequestId,
      onRefusal: (error, cause) => {
        metrics.refusals.inc({ platform: 'none', reason: error.code });
        app.log.debug({ err: cause, code: error.code }, 'client error');
      },
    }),
    frameworkErrors: (error, request, reply) => {
      attachState(request, reply);
      void sendError(error, request, reply);
    },
  });

  const renewer = new LeaseRenewer({
    store,
    leaseMs: config.leaseMs,
    clock,
    onError: (error) => {
      app.log.warn({ err: error }, 'lease renewal failed');
    },
  });
  const prices = options.prices ?? loadGatewayPrices(config.priceFile).table;
  const meteringMetrics = createMeteringMetrics(registry);
  const settlement = startSettlement({
    store,
    config,
    clock,
    log: app.log,
    metrics: meteringMetrics,
  });
  const finishing: FinishDependencies = {
    settlements: settlement.queue,
    store,
    renewer,
    clock,
    timeZone: config.timeZone,
    pending: new Set(),
    metrics: meteringMetrics,
    prices,
  };
  const pools = new UpstreamPools(config);
  const upstreams = new UpstreamCache({
    store,
    credentialKey: config.credentialKey,
    clock,
    refreshMs: config.upstreamRefreshMs,
  });
  app.decorate('gateway', {
    health,
    registry,
    inFlight: () => renewer.size + finishing.pending.size,
    settlements: settlement.queue,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  app.decorateRequest('tollgate', undefined as never);

  /** The request's one state object, and its one settlement trigger (the response's close). */
  function attachState(request: FastifyRequest, reply: FastifyReply): void {
    const config = request.routeOptions.config as FastifyContextConfig | undefined;
    const state = newRequestState({
      requestId: request.id,
      profile: config?.profile ?? null,
      callerIp: resolveCallerIp({
        socketAddress: request.raw.socket.remoteAddress,
        forwardedFor: request.headers['x-forwarded-for'],
        trustedProxies,
      }),
    });
    request.tollgate = state;
    const platforms = config?.profile?.platforms;
    const platform = platforms?.length === 1 ? (platforms[0] ?? 'none') : 'none';
    metrics.inFlight.enter(platform);
    reply.raw.once('close', () => {
      metrics.inFlight.leave(platform);
      // The response did not end (the client went away): fastify runs no onResponse hook for it.
      if (reply.raw.writableFinished || state.counted) return;
      const statusCode = reply.raw.headersSent ? reply.statusCode : CLIENT_CLOSED_STATUS;
      countCall(request, reply, statusCode);
      accessLog.requestClosed(request, reply, statusCode);
    });
    reply.header('x-tollgate-request-id', request.id);
    settleOnClose(finishing, state, reply);
  }

  // Hooks that do not wait for anything take fastify's callback form: no promise per call.
  app.addHook('onRequest', (request, reply, done) => {
    attachState(request, reply);
    done();
  });
  const authorize = createAuthorizationHook({
    store: cacheKeyPolicies({ store, ttlMs: config.keyPolicyCacheMs }),
    policies: store,
    pepper: config.pepper,
    clock,
  });
  app.addHook('onRoute', (route) => {
    appendAuthorization(route, authorize);
  });
  app.addHook(
    'preParsing',
    createBodyReader({
      limitBytes: config.bodyLimitBytes,
      idleTimeoutMs: config.requestBodyIdleTimeoutMs,
    }),
  );
  app.addHook(
    'preHandler',
    createAdmissionHook({
      store,
      clock,
      leaseMs: config.leaseMs,
      renewer,
      prices,
      estimateNano: options.estimateNano,
      timeZone: config.timeZone,
      sessionTtlMs: config.stickySessionTtlMs,
    }),
  );
  /** Counts an ended call once: when its response ends, or when the client closes it first. */
  function countCall(request: FastifyRequest, reply: FastifyReply, statusCode: number): void {
    const state = request.tollgate;
    state.counted = true;
    const platform = state.platform ?? 'none';
    const labels = { platform, status_class: statusClass(statusCode) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
    if (state.errorCode !== null) metrics.refusals.inc({ platform, reason: state.errorCode });
    const firstByteMs = state.outcome.timeToFirstByteMs;
    if (firstByteMs !== null) metrics.timeToFirstByte.observe({ platform }, firstByteMs / 1000);
  }

  app.addHook('onResponse', (request, reply, done) => {
    if (!request.tollgate.counted) countCall(request, reply, reply.statusCode);
    done();
  });

  async function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const gatewayError = toGatewayError(error);
    if (gatewayError.code === 'TG_INTERNAL') request.log.error({ err: error }, 'unexpected error');
    else if (gatewayError.code === 'TG_STORE_UNAVAILABLE') {
      request.log.warn({ err: error }, 'store unavailable');
    }
    const state = request.tollgate as typeof request.tollgate | undefined;
    const shape = decideErrorShape({
      profile: state?.profile ?? null,
      keyPlatform: state?.key?.group.platform ?? null,
      hints: { path: request.url, headers: request.headers },
    });
    if (state !== undefined) state.errorCode = gatewayError.code;
    if (gatewayError.retryAfterSeconds !== undefined && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(gatewayError.retryAfterSeconds));
    }
    // Refused before its body was read (key, media type, size, timeout): do not wait for the rest.
    if (hasBody(request.headers) && !request.raw.complete) reply.header('connection', 'close');
    return reply
      .code(gatewayError.statusCode)
      .type('application/json')
      .send(renderErrorBody(shape, gatewayError));
  }
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((request, reply) => {
    const allow = allowedMethods(request.url);
    if (allow === null) return Promise.reject(new GatewayError('TG_ROUTE_NOT_FOUND'));
    reply.header('allow', allow);
    return Promise.reject(new GatewayError('TG_METHOD_NOT_ALLOWED'));
  });

  registerHealthRoutes(app, { store, health });
  registerModelRoutes(app);
  registerUsageRoutes(app, { store, clock });
  registerForwardRoutes(app, {
    store: {
      releaseUpstreamSlot: (upstream, requestId) => store.releaseUpstreamSlot(upstream, requestId),
      reportUpstreamSuccess: (upstream) => store.reportUpstreamSuccess(upstream),
      bindSession: (binding) => store.bindSession(binding),
      readPolicyMarker: () => store.readPolicyMarker(),
      ...cacheCleanClaims({ store, ttlMs: config.upstreamClaimCacheMs }),
    },
    renewer,
    upstreams,
    credentials: options.credentials ?? createUpstreamCredentials({ clock }),
    pools,
    clock,
    random: options.random ?? Math.random,
    leaseMs: config.leaseMs,
    maxErrorBodyBytes: 64 * 1024,
    failover: {
      maxAttempts: config.upstreamMaxAttempts,
      deadlineMs: config.upstreamFailoverDeadlineMs,
      probeLeaseMs: config.upstreamProbeLeaseMs,
      health: {
        failureThreshold: config.upstreamFailureThreshold,
        baseCooldownMs: config.upstreamCooldownBaseMs,
        maxCooldownMs: config.upstreamCooldownMaxMs,
      },
    },
    metrics: createUpstreamMetrics(registry),
  });

  app.addHook('onClose', async () => {
    await Promise.allSettled([...finishing.pending]);
    await settlement.close();
    renewer.stop();
    await pools.close();
  });
  return app;
}
