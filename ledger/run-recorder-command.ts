/**
 * `tollgate recorder` (cluster mode): drains every account's usage stream from Redis into
 * PostgreSQL, keeps partitions and retention, restores the spend counters the store lost, and
 * serves its metrics, until SIGINT/SIGTERM. Run one or two replicas; each needs its own consumer
 * name (the pod name), and a dead replica's unacknowledged records are claimed by the others.
 */
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import {
  connectRedisClient,
  waitUntilReady,
  type RedisClientOptions,
} from '../store/connect-redis-client.js';
import { createRedisKeyNames } from '../store/redis-key-names.js';
import { createRedisStore } from '../store/redis-store.js';
import { openLedgerDatabase } from './open-ledger-database.js';
import { parseRecorderConfig } from './recorder-config.js';
import { createUsageStreamLister } from './recorder/list-usage-streams.js';
import { lowerProcessPriority } from './recorder/lower-process-priority.js';
import { createRedisRecordSource } from '../store/redis-usage-record-source.js';
import { serveMetrics } from './serve-metrics.js';
import { startRecorderService } from './start-recorder-service.js';

function waitForSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function run(args: readonly string[]): Promise<void> {
  const config = parseRecorderConfig(args, process.env);
  const logger = pino({ name: 'tollgate-recorder', level: config.logLevel });
  // Before the connections and the loops: where it shares a core with the gateway, its batches
  // wait for the calls (docs/ledger.md, "The recorder's pace and priority").
  const lowered = lowerProcessPriority(config.niceness);
  const redisOptions: RedisClientOptions =
    config.redisClusterNodes.length > 0
      ? { clusterNodes: config.redisClusterNodes }
      : { url: config.redisUrl ?? '' };
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tollgate_recorder_' });
  const db = await openLedgerDatabase(
    { databaseUrl: config.databaseUrl },
    {
      onIdleError: (error) => {
        logger.warn({ err: error }, 'PostgreSQL connection lost');
      },
    },
  );
  const store = await createRedisStore({ ...redisOptions, prefix: config.redisPrefix });
  const client = connectRedisClient(redisOptions);
  client.on('error', () => undefined);
  await waitUntilReady(client, 5_000);
  const names = createRedisKeyNames(config.redisPrefix);
  const service = startRecorderService({
    source: createRedisRecordSource({
      redis: client,
      listStreams: createUsageStreamLister({ client, names }),
      consumer: config.consumer,
    }),
    db,
    store,
    captures: store,
    registry,
    retentionDays: config.retentionDays,
    timeZone: config.timeZone,
    batchSize: config.batchSize,
    gatherMs: config.gatherMs,
    log: logger,
  });
  const metrics = await serveMetrics(registry, {
    port: config.metricsPort,
    host: config.metricsHost,
    healthz: true,
  });
  logger.info(
    {
      consumer: config.consumer,
      metrics: metrics.url,
      retentionDays: config.retentionDays,
      gatherMs: config.gatherMs,
      niceness: config.niceness,
      threadsLowered: lowered.threads,
    },
    'recorder running',
  );
  await waitForSignal();
  logger.info('recorder: shutting down');
  await service.stop();
  await metrics.close();
  client.disconnect();
  await store.close();
  await db.close();
}
