/** `tollgate operator`: the operator as its own process (in-cluster config or KUBECONFIG). */
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { keepKubeConnections } from '../network/keep-kube-connections.js';
import { createStore } from '../store/create-store.js';
import { loadSecretFiles } from './load-secret-files.js';
import { loadOperatorSettings } from './operator-config.js';
import { startOperator } from './start-operator.js';

export async function run(args: readonly string[]): Promise<void> {
  const settings = loadOperatorSettings(args);
  const logger = pino({ name: 'tollgate-operator', level: settings.logLevel });
  const kubeConfig = new KubeConfig();
  if (settings.kubeconfig !== undefined) kubeConfig.loadFromFile(settings.kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST === undefined) {
    // Outside a cluster the client would retry https://undefined:undefined until a timeout.
    throw new Error('the operator needs a cluster: pass --kubeconfig, or run it in a pod');
  } else kubeConfig.loadFromCluster();
  const secrets = loadSecretFiles(settings);
  const store = await createStore({
    ...(settings.redisUrl !== undefined ? { redisUrl: settings.redisUrl } : {}),
    ...(settings.redisPrefix !== undefined ? { prefix: settings.redisPrefix } : {}),
    ...(settings.dataDir !== undefined ? { dataDir: settings.dataDir } : {}),
  });
  const operator = await startOperator({
    // One kept connection to the API server instead of a TLS handshake per call.
    kubeConfig: keepKubeConnections(kubeConfig),
    store,
    namespace: settings.namespace,
    ...secrets,
    logger,
    resyncMs: settings.resyncSeconds * 1000,
    leaseDurationMs: settings.leaseDurationSeconds * 1000,
    renewIntervalMs: settings.renewIntervalSeconds * 1000,
    usageRefreshMs: settings.usageRefreshSeconds * 1000,
    upstreamHealthRefreshMs: settings.upstreamHealthRefreshSeconds * 1000,
    notificationIntervalMs: settings.notificationIntervalSeconds * 1000,
    notifierAllowLoopback: settings.notifierAllowLoopback,
    metricsPort: settings.metricsPort,
    metricsHost: settings.metricsHost,
    spendGauges: settings.spendGauges,
  });
  logger.info({ namespace: settings.namespace, store: store.kind }, 'operator started');
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  logger.info('operator stopping');
  await operator.close();
  await store.close();
  // A watch whose response has not begun cannot be aborted by its informer (client-node keeps no
  // handle until then), e.g. on a kind with no objects yet: its socket would keep the process
  // alive after a clean shutdown. Everything is closed here, so a process still running a second
  // later exits.
  setTimeout(() => process.exit(0), 1_000).unref();
}
