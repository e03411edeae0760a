/**
 * The operator, programmatically: informers feed a work queue; only the Lease holder reconciles.
 * `tollgate operator` (run-operator.ts) and `tollgate local` both start it through here.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { pino, type Logger } from 'pino';
import type { Store } from '../store/store.js';
import { LeaderElector } from './elect-leader.js';
import { KeyHashIndex } from './index-key-hashes.js';
import { KubernetesApi } from './kubernetes-api.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import { OperatorMetrics, serveMetrics } from './operator-metrics.js';
import { PolicyMarkerWatch } from './watch-policy-marker.js';
import { processQueueKey } from './process-queue-key.js';
import { refreshUpstreamAvailability } from './refresh-upstream-availability.js';
import { UpstreamAvailabilityMetrics } from './upstream-availability-metrics.js';
import { reuseApiConnections } from './reuse-api-connections.js';
import { EventRouter } from './route-events.js';
import { ResourceWatch } from './watch-resources.js';
import { WorkQueue } from './work-queue.js';
import { startNotificationRounds } from './notify/start-notification-rounds.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './notify/plan-next-attempt.js';

export interface StartOperatorOptions {
  kubeConfig: KubeConfig;
  store: Store;
  /** The operator namespace: Upstream Secrets and the Lease (`tollgate-system`). */
  namespace: string;
  pepper: Buffer;
  credentialKey: Buffer;
  logger?: Logger;
  identity?: string;
  /** The leader Lease's name (default `tollgate-operator`). */
  leaseName?: string;
  resyncMs?: number;
  leaseDurationMs?: number;
  renewIntervalMs?: number;
  usageRefreshMs?: number;
  /** How often the leader reads upstream health from the store into status (default 10 s). */
  upstreamHealthRefreshMs?: number;
  /** How often the leader evaluates notifiers and attempts due deliveries (default 30 s). */
  notificationIntervalMs?: number;
  /** Lets notifiers send to loopback addresses (tests, local mode); default false. */
  notifierAllowLoopback?: boolean;
  /** Retries of notification deliveries (default: 12 attempts, 10 s doubling to 10 min, about an hour). */
  notificationRetry?: RetryPolicy;
  /** How long one notification attempt may take (default 10 s). */
  notificationTimeoutMs?: number;
  /** How often the leader reads the policy cache's generation marker (default 1 s). */
  policyMarkerCheckMs?: number;
  /** Serve `/metrics` on this port (0 = any free port); absent = no metrics server. */
  metricsPort?: number;
  metricsHost?: string;
  spendGauges?: boolean;
  workers?: number;
}

export interface RunningOperator {
  isLeader(): boolean;
  metrics: OperatorMetrics;
  metricsPort: number | null;
  /** Resolves when nothing is queued or being reconciled. */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
}

export async function startOperator(options: StartOperatorOptions): Promise<RunningOperator> {
  const logger = options.logger ?? pino({ name: 'tollgate-operator' });
  const metrics = new OperatorMetrics({ spendGauges: options.spendGauges ?? false });
  const usageRefreshMs = options.usageRefreshMs ?? 60_000;
  const wiring: { context?: OperatorContext; router?: EventRouter } = {};
  const queue = new WorkQueue({
    workers: options.workers ?? 16,
    urgentWorkers: 4,
    process: (key) =>
      wiring.context === undefined ? Promise.resolve() : processQueueKey(wiring.context, key),
  });
  const cache = new ResourceWatch({
    kubeConfig: options.kubeConfig,
    resyncMs: options.resyncMs ?? 300_000,
    onEvent: (source, type, object) => {
      metrics.watchEvents.inc({ kind: source, type });
      wiring.router?.route(source, type, object);
      metrics.queueDepth.set(queue.depth);
    },
    onList: (source) => {
      metrics.lists.inc({ kind: source });
    },
    onError: (source, error) => {
      logger.warn({ kind: source, err: error }, 'watch failed; restarting');
    },
  });
  const context: OperatorContext = {
    api: new KubernetesApi(reuseApiConnections(options.kubeConfig)),
    cache,
    store: options.store,
    queue,
    metrics,
    logger,
    namespace: options.namespace,
    pepper: options.pepper,
    credentialKey: options.credentialKey,
    notifierGuard: { allowLoopback: options.notifierAllowLoopback ?? false },
    now: () => Date.now(),
    writtenKeyHashes: new Map(),
    usageReadRounds: new Map(),
    usageRound: { current: 0 },
    keyHashIndex: new KeyHashIndex(),
    programmedKeyDigests: new Map(),
    ownSecretCreations: new Set(),
  };
  wiring.context = context;
  wiring.router = new EventRouter(context);
  let server: Awaited<ReturnType<typeof serveMetrics>> | null = null;
  try {
    await cache.start();
    if (options.metricsPort !== undefined) {
      const host = options.metricsHost ?? '127.0.0.1';
      server = await serveMetrics(metrics, { port: options.metricsPort, host });
    }
  } catch (error) {
    await cache.stop();
    throw error;
  }

  const usageTimer = setInterval(() => {
    if (!elector.isLeader()) return;
    context.usageRound.current += 1;
    for (const key of cache.list('ApiKey')) {
      queue.add(queueKey('ApiKey', key.metadata.namespace, key.metadata.name));
    }
    for (const account of cache.list('Account')) {
      queue.add(queueKey('Account', account.metadata.namespace, account.metadata.name));
    }
  }, usageRefreshMs);
  usageTimer.unref();

  const availability = new UpstreamAvailabilityMetrics(metrics.registry);
  let refreshingAvailability = false;
  const availabilityTimer = setInterval(() => {
    if (!elector.isLeader() || refreshingAvailability) return;
    refreshingAvailability = true;
    refreshUpstreamAvailability(context, availability)
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'upstream availability refresh failed');
      })
      .finally(() => {
        refreshingAvailability = false;
      });
  }, options.upstreamHealthRefreshMs ?? 10_000);
  availabilityTimer.unref();

  const notifications = startNotificationRounds(context, {
    isLeader: () => elector.isLeader(),
    intervalMs: options.notificationIntervalMs ?? 30_000,
    retry: options.notificationRetry ?? DEFAULT_RETRY_POLICY,
    timeoutMs: options.notificationTimeoutMs ?? 10_000,
  });

  const markerWatch = new PolicyMarkerWatch({
    context,
    isLeader: () => elector.isLeader(),
    ...(options.policyMarkerCheckMs === undefined
      ? {}
      : { intervalMs: options.policyMarkerCheckMs }),
  });
  const elector = new LeaderElector({
    kubeConfig: options.kubeConfig,
    namespace: options.namespace,
    leaseName: options.leaseName ?? 'tollgate-operator',
    identity: options.identity ?? `${hostname()}-${randomUUID().slice(0, 8)}`,
    leaseDurationMs: options.leaseDurationMs ?? 10_000,
    renewIntervalMs: options.renewIntervalMs ?? 2_000,
    logger,
    onStartedLeading: () => {
      metrics.leader.set(1);
      // A store never programmed, or one that lost its data while no leader ran: programmed now.
      markerWatch.check();
      cache.replay();
      queue.add(queueKey('Sweep', '', 'key-policies'));
      queue.resume();
    },
    onStoppedLeading: () => {
      metrics.leader.set(0);
      void queue.pause();
    },
  });
  elector.start();
  markerWatch.start();

  return {
    isLeader: () => elector.isLeader(),
    metrics,
    metricsPort: server?.port ?? null,
    whenIdle: () => queue.whenIdle(),
    close: async () => {
      clearInterval(usageTimer);
      clearInterval(availabilityTimer);
      await notifications.stop();
      await markerWatch.stop();
      await queue.stop();
      await elector.stop();
      await cache.stop();
      await server?.close();
    },
  };
}
