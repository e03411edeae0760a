/**
 * `tollgate local`: control plane, operator, gateway and the usage recorder in one process, until
 * SIGINT/SIGTERM.
 */
import { parseLocalConfig } from './local-config.js';
import { startLocalStack } from './start-local-stack.js';

export async function run(args: readonly string[]): Promise<void> {
  const config = parseLocalConfig(args, process.env);
  const stack = await startLocalStack(config);
  const kubeconfig = stack.local.kubeconfigPath;
  process.stdout.write(
    [
      'tollgate local is running',
      `  gateway:            ${stack.gatewayUrl}`,
      `  gateway metrics:    ${stack.metricsUrl}`,
      `  operator metrics:   ${stack.operatorMetricsUrl}`,
      `  kubernetes API:     ${stack.local.apiUrl}`,
      `  kubeconfig:         ${kubeconfig}`,
      `  store:              ${stack.store.kind === 'redis' ? 'redis (REDIS_URL)' : 'memory, persisted to the data folder'}`,
      `  usage ledger:       ${config.databaseUrl === undefined ? 'PGlite in the data folder (ledger/)' : 'PostgreSQL (--database-url)'}`,
      `  try: kubectl --kubeconfig ${kubeconfig} apply -f examples/`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write('tollgate local: shutting down\n');
  await stack.close();
}
