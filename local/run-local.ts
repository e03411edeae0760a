/**
 * `tollgate local`: control plane, operator, gateway and the usage recorder in one process, until
 * SIGINT/SIGTERM.
 */
import { parseLocalConfig } from './local-config.js';
import { OPERATOR_NAMESPACE, startLocalStack } from './start-local-stack.js';
import { holdsNoObjects, startDemoWorld, takeDemoFlag } from './start-demo-world.js';

export async function run(args: readonly string[]): Promise<void> {
  const demoFlag = takeDemoFlag(args, process.env);
  const config = parseLocalConfig(demoFlag.rest, process.env);
  const firstStart = holdsNoObjects(config.dataDirectory);
  const stack = await startLocalStack(config);
  const kubeconfig = stack.local.kubeconfigPath;
  const demo = await startDemoWorld({
    enabled: demoFlag.enabled,
    firstStart,
    host: config.host,
    gatewayPort: config.port,
    gatewayUrl: stack.gatewayUrl,
    kubeconfigPath: kubeconfig,
    operatorNamespace: OPERATOR_NAMESPACE,
    access: stack.local,
  }).catch(async (error: unknown) => {
    await stack.close();
    throw error;
  });
  process.stdout.write(
    [
      'tollgate local is running',
      `  gateway:            ${stack.gatewayUrl}`,
      `  gateway metrics:    ${stack.metricsUrl}`,
      `  operator metrics:   ${stack.operatorMetricsUrl}`,
      `  console:            ${stack.consoleUrl}`,
      ...(stack.consoleAdminPassword === undefined
        ? []
        : [
            `  console sign-in:    admin / ${stack.consoleAdminPassword} (shown once; also in ${config.dataDirectory}/console-admin-password)`,
          ]),
      `  kubernetes API:     ${stack.local.apiUrl}`,
      `  kubeconfig:         ${kubeconfig}`,
      `  store:              ${stack.store.kind === 'redis' ? 'redis (REDIS_URL)' : 'memory, persisted to the data folder'}`,
      `  usage ledger:       ${config.databaseUrl === undefined ? 'PGlite in the data folder (ledger/)' : 'PostgreSQL (--database-url)'}`,
      ...(demo?.banner ?? [`  try: kubectl --kubeconfig ${kubeconfig} apply -f examples/`]),
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
  await demo?.close();
}
