/**
 * Everything `tollgate local` runs in one process: the local control plane, the store (memory in the
 * data folder, or Redis with `REDIS_URL`), the operator loop and the gateway with its metrics port.
 * The parts are the same code that runs in a cluster; only the Kubernetes API is the local one.
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
import type { Store } from '../store/store.js';
import { loadSecretFiles } from '../operator/load-secret-files.js';
import { startOperator, type RunningOperator } from '../operator/start-operator.js';
import { startLocal, type Local } from './start-local.js';

export const OPERATOR_NAMESPACE = 'tollgate-system';

export interface LocalStackOptions {
  dataDirectory: string;
  host: string;
  /** The gateway port. */
  port: number;
  apiPort: number;
  metricsPort: number;
  operatorMetricsPort: number;
  redisUrl?: string | undefined;
  /** Gateway settings from `TOLLGATE_*` (trusted proxies, timeouts, time zone...). */
  gateway: GatewaySettings;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How often key usage in `.status` is refreshed; default one minute. */
  usageRefreshMs?: number;
}

export interface LocalStack {
  local: Local;
  store: Store;
  operator: RunningOperator;
  gateway: FastifyInstance;
  gatewayUrl: string;
  metricsUrl: string;
  operatorMetricsUrl: string;
  close(): Promise<void>;
}

function addressOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('gateway not listening');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDirectory = resolve(options.dataDirectory);
  const logLevel = options.logLevel ?? options.gateway.logLevel;
  const logger = pino({ name: 'tollgate-local', level: logLevel });
  const local = await startLocal({ dataDirectory, host: options.host, apiPort: options.apiPort });
  const closers: (() => Promise<void>)[] = [() => local.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const secrets = loadSecretFiles({ dataDir: dataDirectory });
    const store = await createStore(
      options.redisUrl === undefined
        ? { dataDir: join(dataDirectory, 'store') }
        : { redisUrl: options.redisUrl },
    );
    closers.push(() => store.close());
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(local.kubeconfigPath);
    const operator = await startOperator({
      kubeConfig,
      store,
      namespace: OPERATOR_NAMESPACE,
      ...secrets,
      logger: logger.child({ part: 'operator' }),
      metricsPort: options.operatorMetricsPort,
      metricsHost: options.host,
      ...(options.usageRefreshMs === undefined ? {} : { usageRefreshMs: options.usageRefreshMs }),
    });
    closers.push(() => operator.close());
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tollgate_' });
    const config: AppConfig = {
      ...options.gateway,
      ...secrets,
      host: options.host,
      port: options.port,
      logLevel,
    };
    const gateway = build({ store, config, registry });
    closers.push(() => gateway.close());
    await gateway.listen({ host: options.host, port: options.port });
    const metrics = buildMetricsServer(registry);
    closers.push(() => metrics.close());
    await metrics.listen({ host: options.host, port: options.metricsPort });
    return {
      local,
      store,
      operator,
      gateway,
      gatewayUrl: addressOf(gateway),
      metricsUrl: `${addressOf(metrics)}/metrics`,
      operatorMetricsUrl: `http://${options.host}:${operator.metricsPort ?? options.operatorMetricsPort}/metrics`,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
