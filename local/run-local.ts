/** `tollgate local`: the control plane and the gateway port in one process, until SIGINT/SIGTERM. */
import { parseLocalConfig } from './local-config.js';
import { startLocal } from './start-local.js';

export async function run(args: readonly string[]): Promise<void> {
  const config = parseLocalConfig(args, process.env);
  const local = await startLocal({
    dataDirectory: config.dataDirectory,
    host: config.host,
    apiPort: config.apiPort,
    port: config.port,
  });
  process.stdout.write(
    [
      'tollgate local is running',
      `  gateway (healthz): ${local.gatewayUrl ?? 'not started'}`,
      `  kubernetes API:    ${local.apiUrl}`,
      `  kubeconfig:        ${local.kubeconfigPath}`,
      `  try: kubectl --kubeconfig ${local.kubeconfigPath} get tollgate -A`,
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
  await local.close();
}
