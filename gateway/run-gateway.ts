/**
 * `tollgate gateway`: parse the configuration, open the store, serve the gateway and its metrics,
 * and on SIGTERM / SIGINT drain: refuse readiness, stop accepting, let streams finish up to the
 * drain deadline, settle everything (settlements waiting for the store are retried until the same
 * deadline, then handed over to lease expiry, which charges them as estimated), close the store.
 */
import cluster from 'node:cluster';
import { once } from 'node:events';
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';
import { build } from './app.js';
import { openLogDestination } from './open-log-destination.js';
import { loadGatewaySettings, type AppConfig, type GatewaySettings } from './gateway-config.js';
import { readKeyFile, readPepperFile } from '../store/read-secret-files.js';
import { buildMetricsServer } from './metrics/serve-metrics.js';
import { createStore } from '../store/create-store.js';
import { settlementMarkerTtlMs } from '../store/settled-markers.js';

function appConfigFrom(settings: GatewaySettings): AppConfig {
  const { pepperFile, credentialKeyFile, ...rest } = settings;
  if (pepperFile === undefined) throw new Error('set --pepper-file or TOLLGATE_PEPPER_FILE');
  if (credentialKeyFile === undefined) {
    throw new Error('set --credential-key-file or TOLLGATE_CREDENTIAL_KEY_FILE');
  }
  return {
    ...rest,
    pepper: readPepperFile(pepperFile),
    credentialKey: readKeyFile(credentialKeyFile),
  };
}

export async function run(args: readonly string[]): Promise<void> {
  const settings = loadGatewaySettings(args);
  const config = appConfigFrom(settings);
  const store = await createStore({
    ...(settings.redisUrl !== undefined ? { redisUrl: settings.redisUrl } : {}),
    ...(settings.dataDir !== undefined ? { dataDir: settings.dataDir } : {}),
    ...(settings.redisPrefix !== undefined ? { prefix: settings.redisPrefix } : {}),
    settlementMarkerTtlMs: settlementMarkerTtlMs(config.settlementRetryMs),
    captureQueueLimit: config.captureQueueLimit,
    captureQueueBytes: config.captureQueueBytes,
  });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tollgate_' });
  const app = build({ store, config, registry, logStream: openLogDestination() });
  // A cluster worker's metrics are read by the primary, which serves the sum (run-gateway-workers).
  const metrics = cluster.isWorker ? null : buildMetricsServer(registry);
  if (cluster.isWorker) {
    // Constructing one installs the worker's answer to the primary's requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  await app.listen({ port: settings.port, host: settings.host });
  await metrics?.listen({ port: settings.metricsPort, host: settings.metricsHost });

  const signal = await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
  app.log.info({ signal, inFlight: app.gateway.inFlight() }, 'draining');
  app.gateway.health.draining = true;
  app.gateway.settlements.drainBy(Date.now() + settings.drainTimeoutMs);
  const deadline = setTimeout(() => {
    app.log.warn({ inFlight: app.gateway.inFlight() }, 'drain deadline reached; closing streams');
    app.server.closeAllConnections();
  }, settings.drainTimeoutMs);
  // Connections kept alive after their last response would hold the close open until the deadline.
  const sweeper = setInterval(() => {
    app.server.closeIdleConnections();
  }, 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweeper);
    clearTimeout(deadline);
    await metrics?.close();
    await store.close();
  }
}
