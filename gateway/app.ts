/**
 * `build(options)`: the gateway as a FastifyInstance, with its store, config and clock injected.
 * `run-gateway.ts` listens and drains; tests call `build` and `listen({ port: 0 })` or `inject`.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import { AccessLog } from './access-log.js';
import type { AppConfig } from './gateway-config.js';
import { toGatewayError } from './errors/to-gateway-error.js';
import { loadGatewayPrices } from './billing/load-gateway-prices.js';
import type { PriceTable } from './billing/load-price-table.js';
import { createGatewayMetrics } from './metrics/gateway-metrics.js';
import { createMeteringMetrics } from './metrics/metering-metrics.js';
import { createCaptureMetrics } from './metrics/capture-metrics.js';
import { REPLY_REASSEMBLERS } from './protocols/registry.js';
import { createUpstreamMetrics } from './metrics/upstream-metrics.js';
import { createAdmissionHook } from './stages/admit/admission-hook.js';
import { createClientErrorHandler } from './stages/request/answer-client-error.js';
import {
  appendAuthorization,
  createAuthorizationHook,
} from './stages/authorize/authorization-hook.js';
import { decideErrorShape } from './stages/request/decide-error-shape.js';
import { parseRanges } from '../network/match-source-ranges.js';
import { redactUrl } from './stages/request/redact-url.js';
import { newRequestId } from './stages/request/new-request-id.js';
import { allowedMethods } from './stages/request/match-method-path.js';
import { createBodyReader, hasBody } from './stages/admit/read-request-body.js';
import { LeaseRenewer } from './stages/admit/renew-leases.js';
import { cacheCleanClaims } from './upstreams/cache-clean-claims.js';
import { cacheKeyPolicies } from './stages/authorize/cache-key-policies.js';
import { hashKeyValue } from '../store/hash-key-value.js';
import { openRequest, type RequestEndDependencies } from './stages/request/request-end.js';
import type { SettlementQueue } from './stages/settle/settle-with-retry.js';
import { startSettlement } from './stages/settle/start-settlement.js';
import { UpstreamCache } from './upstreams/resolve-upstreams.js';
import './stages/request/route-config.js';
import { UpstreamPools } from './upstreams/upstream-pools.js';
import { createProviderRegistry } from './providers/registry.js';
import {
  createUpstreamCredentials,
  type UpstreamCredentials,
} from './upstreams/upstream-credentials.js';
import { renderErrorBody } from './errors/render-error.js';
import { registerForwardRoutes } from './routes/register-forward-routes.js';
import { CaptureReplyBudget } from './capture/capture-reply-budget.js';
import { registerHealthRoutes, type HealthState } from './routes/register-health-routes.js';
import { registerModelRoutes } from './routes/register-model-routes.js';
import { registerUsageRoutes } from './routes/register-usage-routes.js';
import { UpstreamWebsockets } from './upstreams/upstream-websockets.js';
import { registerResponsesWebsocket } from './routes/responses-websocket/register-responses-websocket.js';
import { createWebsocketMetrics } from './metrics/websocket-metrics.js';
import type { Store } from '../store/store.js';
import { GatewayError } from './errors/gateway-error.js';
import { createTracing } from './tracing/create-tracing.js';

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
      attachRecord(request, reply);
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
  // Null without `--otlp-endpoint`: then no span, no attribute, no trace header is ever made.
  const tracing = createTracing(config, { registry });
  const settlement = startSettlement({
    store,
    config,
    clock,
    log: app.log,
    metrics: meteringMetrics,
  });
  const bodies = createBodyReader({
    limitBytes: config.bodyLimitBytes,
    idleTimeoutMs: config.requestBodyIdleTimeoutMs,
  });
  const ends: RequestEndDependencies = {
    settlements: settlement.queue,
    store,
    renewer,
    clock,
    pending: new Set(),
    gatewayMetrics: metrics,
    metrics: meteringMetrics,
    accessLog,
    trustedProxies,
    prices,
    captures: {
      store,
      metrics: createCaptureMetrics(registry),
      reassemblers: REPLY_REASSEMBLERS,
    },
    tracing,
    stopWatchingBody: bodies.stopWatching,
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
    inFlight: () => renewer.size + ends.pending.size,
    settlements: settlement.queue,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    bodies.stopWatching(request);
    done(null, body);
  });
  app.decorateRequest('tollgate', undefined as never);

  /** The request's record, with its one end (request-end.ts). */
  function attachRecord(request: FastifyRequest, reply: FastifyReply): void {
    request.tollgate = openRequest(ends, request, reply);
    reply.header('x-tollgate-request-id', request.id);
  }

  // Hooks that do not wait for anything take fastify's callback form: no promise per call.
  app.addHook('onRequest', (request, reply, done) => {
    attachRecord(request, reply);
    done();
  });
  const authorize = createAuthorizationHook({
    store: cacheKeyPolicies({ store, ttlMs: config.keyPolicyCacheMs }),
    policies: store,
    // Hashed per request: key values are never kept in the process beyond the request.
    hashKey: (value) => hashKeyValue(config.pepper, value),
    clock,
  });
  app.addHook('onRoute', (route) => {
    appendAuthorization(route, authorize);
  });
  app.addHook('preParsing', bodies.preParsing);
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
  async function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const gatewayError = toGatewayError(error);
    if (gatewayError.code === 'TG_INTERNAL') request.log.error({ err: error }, 'unexpected error');
    else if (gatewayError.code === 'TG_STORE_UNAVAILABLE') {
      request.log.warn({ err: error }, 'store unavailable');
    }
    const record = request.tollgate as typeof request.tollgate | undefined;
    const shape = decideErrorShape({
      profile: record?.profile ?? null,
      keyPlatform: record?.authorized?.group.platform ?? null,
      hints: { path: request.url, headers: request.headers },
    });
    if (record !== undefined) record.errorCode = gatewayError.code;
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
  const websocketMetrics = createWebsocketMetrics(registry);
  const websockets = new UpstreamWebsockets(websocketMetrics);
  registerForwardRoutes(app, {
    captureReplyBudget: new CaptureReplyBudget(config.captureReplyBudgetBytes),
    store: {
      releaseUpstreamSlot: (upstream, requestId) => store.releaseUpstreamSlot(upstream, requestId),
      reportUpstreamSuccess: (upstream) => store.reportUpstreamSuccess(upstream),
      bindSession: (binding) => store.bindSession(binding),
      readPolicyMarker: () => store.readPolicyMarker(),
      ...cacheCleanClaims({ store, ttlMs: config.upstreamClaimCacheMs }),
    },
    renewer,
    upstreams,
    providers: createProviderRegistry({
      credentials: options.credentials ?? createUpstreamCredentials({ clock }),
      endpoints: config.providerEndpoints,
      clock,
    }),
    pools,
    clock,
    random: options.random ?? Math.random,
    leaseMs: config.leaseMs,
    maxErrorBodyBytes: 64 * 1024,
    firstOutputTimeoutMs: config.firstOutputTimeoutMs,
    websockets,
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

  registerResponsesWebsocket(app, {
    limits: {
      maxMessages: config.websocketMaxMessages,
      idleTimeoutMs: config.websocketIdleTimeoutMs,
      maxMessageBytes: config.websocketMaxMessageBytes,
    },
    metrics: websocketMetrics,
    clock,
    websockets,
  });

  app.addHook('onClose', async () => {
    await Promise.allSettled([...ends.pending]);
    await settlement.close();
    renewer.stop();
    await pools.close();
    // The spans of the calls just settled go out before the process exits (bounded by the
    // exporter's timeout).
    await tracing?.shutdown();
  });
  return app;
}
