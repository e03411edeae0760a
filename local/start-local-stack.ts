/**
 * Everything `tollgate local` runs in one process: the local control plane, the store (memory in the
 * data folder, or Redis with `REDIS_URL`), the usage ledger (PGlite in the data folder, or
 * PostgreSQL at a database URL) with its recorder, the operator loop and the gateway with its
 * metrics port. The parts are the same code that runs in a cluster; only the Kubernetes API is the
 * local one.
 */
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { build } from '../gateway/app.js';
import type { AppConfig, GatewaySettings } from '../gateway/gateway-config.js';
import { buildMetricsServer } from '../gateway/metrics/serve-metrics.js';
import { createStore } from '../store/create-store.js';
import { connectRedisClient, waitUntilReady } from '../store/connect-redis-client.js';
import { createRedisKeyNames } from '../store/redis-key-names.js';
import type { Store } from '../store/store.js';
import type { LedgerDatabase } from '../ledger/ledger-database.js';
import { openLedgerDatabase } from '../ledger/open-ledger-database.js';
import { createUsageStreamLister } from '../ledger/recorder/list-usage-streams.js';
import { MemoryRecordQueue } from '../store/memory-usage-record-source.js';
import type { RecordSource } from '../store/usage-record-source.js';
import { createRedisRecordSource } from '../store/redis-usage-record-source.js';
import { settlementMarkerTtlMs } from '../store/settled-markers.js';
import { startRecorderService } from '../ledger/start-recorder-service.js';
import { loadSecretFiles } from '../operator/load-secret-files.js';
import { startOperator, type RunningOperator } from '../operator/start-operator.js';
import { DEFAULT_RETENTION_DAYS } from '../ledger/apply-retention.js';
import { InProcessAgent, inProcessKubeConfig } from '../control-plane/connect-in-process.js';
import { startLocal, type Local } from './start-local.js';
import { startLocalConsole } from './start-local-console.js';
import type { LogStream } from './logging/create-log-destination.js';

export const OPERATOR_NAMESPACE = 'tollgate-system';

/** The recorder's pause after a partial batch on the embedded ledger (run-recorder.ts `gatherMs`). */
const EMBEDDED_LEDGER_GATHER_MS = 250;

/**
 * The recorder's largest batch on the embedded ledger. Each insert statement costs PGlite about 5 ms
 * of its thread whatever its size, each record about 0.07 ms more: once the recorder is behind (at
 * saturation, after a burst) a batch of 2,000 spends a quarter of a batch of 500's fixed cost per
 * record. The batch is parsed and encoded in slices on the request thread, and inserted on PGlite's.
 */
const EMBEDDED_LEDGER_BATCH_SIZE = 2_000;

export interface LocalStackOptions {
  dataDirectory: string;
  host: string;
  /** The gateway port. */
  port: number;
  apiPort: number;
  metricsPort: number;
  operatorMetricsPort: number;
  /** The console; default: any free port. */
  consolePort?: number;
  /** The console's public origins; default: its own address on this machine. */
  consolePublicOrigins?: readonly string[];
  redisUrl?: string | undefined;
  /** PostgreSQL for the ledger; PGlite in `<data>/ledger` when absent. */
  databaseUrl?: string | undefined;
  /** Ledger retention in days (default 90). */
  retentionDays?: number;
  /** Gateway settings from `TOLLGATE_*` (trusted proxies, timeouts, time zone...). */
  gateway: GatewaySettings;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where each part's log lines go (by component); default pino's own JSON to stdout. */
  logStream?: (component: string) => LogStream;
  /** How often key usage in `.status` is refreshed; default one minute. */
  usageRefreshMs?: number;
}

export interface LocalStack {
  local: Local;
  store: Store;
  /** The usage ledger the in-process recorder writes. */
  ledger: LedgerDatabase;
  operator: RunningOperator;
  gateway: FastifyInstance;
  gatewayUrl: string;
  metricsUrl: string;
  operatorMetricsUrl: string;
  consoleUrl: string;
  /** The console's `admin` password when it was created at this start (print it once). */
  consoleAdminPassword: string | undefined;
  close(): Promise<void>;
}

function addressOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('gateway not listening');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Without Redis the recorder drains the memory store's queue; with Redis, the usage streams (its
 * client closes with the stack).
 */
async function recordSource(options: {
  redisUrl: string | undefined;
  queue: MemoryRecordQueue;
  closers: (() => Promise<void>)[];
}): Promise<RecordSource> {
  if (options.redisUrl === undefined) return options.queue.consumer('local');
  const client = connectRedisClient({ url: options.redisUrl });
  client.on('error', () => undefined);
  await waitUntilReady(client, 2_000);
  options.closers.push(() => {
    client.disconnect();
    return Promise.resolve();
  });
  return createRedisRecordSource({
    redis: client,
    listStreams: createUsageStreamLister({ client, names: createRedisKeyNames('tg:') }),
    consumer: 'local',
  });
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDirectory = resolve(options.dataDirectory);
  const logLevel = options.logLevel ?? options.gateway.logLevel;
  const streamOf = (component: string) => options.logStream?.(component);
  const localStream = streamOf('local');
  const logger =
    localStream === undefined
      ? pino({ name: 'tollgate-local', level: logLevel })
      : pino({ name: 'tollgate-local', level: logLevel }, localStream);
  const local = await startLocal({ dataDirectory, host: options.host, apiPort: options.apiPort });
  const closers: (() => Promise<void>)[] = [() => local.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const secrets = loadSecretFiles({ dataDir: dataDirectory });
    const queue = new MemoryRecordQueue();
    const markerTtl = {
      settlementMarkerTtlMs: settlementMarkerTtlMs(options.gateway.settlementRetryMs),
    };
    const store = await createStore(
      options.redisUrl === undefined
        ? { dataDir: join(dataDirectory, 'store'), recordQueue: queue, ...markerTtl }
        : { redisUrl: options.redisUrl, ...markerTtl },
    );
    closers.push(() => store.close());
    const ledger = await openLedgerDatabase(
      options.databaseUrl === undefined
        ? { dataDir: dataDirectory }
        : { databaseUrl: options.databaseUrl },
    );
    closers.push(() => ledger.close());
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tollgate_' });
    const recorder = startRecorderService({
      source: await recordSource({ redisUrl: options.redisUrl, queue, closers }),
      db: ledger,
      store,
      captures: store,
      registry,
      retentionDays: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
      timeZone: options.gateway.timeZone,
      log: logger.child({ part: 'recorder' }),
      // The embedded ledger's statements cost milliseconds each: gather a quarter second's records
      // in one (run in PGlite's own thread, see ledger/pglite-worker-thread.ts).
      ...(options.databaseUrl === undefined
        ? { gatherMs: EMBEDDED_LEDGER_GATHER_MS, batchSize: EMBEDDED_LEDGER_BATCH_SIZE }
        : {}),
    });
    closers.push(() => recorder.stop());
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(local.kubeconfigPath);
    // The operator reaches the API in-process (same token, same authorization, no TLS or socket).
    const operatorAgent = new InProcessAgent(() => local.connect());
    closers.push(() => {
      operatorAgent.destroy();
      return Promise.resolve();
    });
    const operator = await startOperator({
      kubeConfig: inProcessKubeConfig(kubeConfig, operatorAgent),
      store,
      namespace: OPERATOR_NAMESPACE,
      ...secrets,
      logger: logger.child({ part: 'operator' }),
      metricsPort: options.operatorMetricsPort,
      metricsHost: options.host,
      // Per-account and per-key spend gauges: a local world has few keys, and the dashboards use them.
      spendGauges: true,
      ...(options.usageRefreshMs === undefined ? {} : { usageRefreshMs: options.usageRefreshMs }),
      // A small world on one machine: notifiers are evaluated every 10 s, and may send to a
      // receiver on this machine (docs/notifications.md).
      notificationIntervalMs: 10_000,
      notifierAllowLoopback: true,
    });
    closers.push(() => operator.close());
    const config: AppConfig = {
      ...options.gateway,
      ...secrets,
      host: options.host,
      port: options.port,
      logLevel,
    };
    const gatewayStream = streamOf('gateway');
    const gateway = build({
      store,
      config,
      registry,
      ...(gatewayStream === undefined ? {} : { logStream: gatewayStream }),
    });
    closers.push(() => gateway.close());
    await gateway.listen({ host: options.host, port: options.port });
    const metrics = buildMetricsServer(registry);
    closers.push(() => metrics.close());
    await metrics.listen({ host: options.host, port: options.metricsPort });
    const consoleServer = await startLocalConsole({
      dataDirectory,
      host: options.host,
      port: options.consolePort ?? 0,
      publicOrigins: options.consolePublicOrigins ?? [],
      kubeConfig,
      ledger,
      store,
      // The console's metrics are served with the gateway's and the recorder's (port + 2).
      registry,
      operatorNamespace: OPERATOR_NAMESPACE,
      timeZone: options.gateway.timeZone,
      gatewayUrl: addressOf(gateway),
      logLevel,
      logStream: streamOf('console'),
    });
    closers.push(() => consoleServer.app.close());
    return {
      local,
      store,
      ledger,
      operator,
      gateway,
      gatewayUrl: addressOf(gateway),
      metricsUrl: `${addressOf(metrics)}/metrics`,
      consoleUrl: consoleServer.url,
      consoleAdminPassword: consoleServer.adminPassword,
      operatorMetricsUrl: `http://${options.host}:${operator.metricsPort ?? options.operatorMetricsPort}/metrics`,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
