/**
 * `tollgate local`: control plane, operator, gateway and the usage recorder in one process, until
 * SIGINT/SIGTERM. Log lines go to stdout, readable on a terminal and JSON otherwise
 * (logging/create-log-destination.ts); the banner comes after the last start-up line.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ADMIN_PASSWORD_FILE } from '../console/server/ensure-local-admin.js';
import { formatStartBanner } from './format-start-banner.js';
import { parseLocalConfig } from './local-config.js';
import { batchLogOutput } from './logging/batch-log-output.js';
import { createLogDestination, resolveLogFormat } from './logging/create-log-destination.js';
import { OPERATOR_NAMESPACE, startLocalStack } from './start-local-stack.js';
import { holdsNoObjects, startDemoWorld, takeDemoFlag } from './start-demo-world.js';

/** Lets the writes queued by the start-up (timers, I/O callbacks) run before the banner. */
function settle(): Promise<void> {
  return new Promise((done) => setTimeout(done, 50));
}

export async function run(args: readonly string[]): Promise<void> {
  const demoFlag = takeDemoFlag(args, process.env);
  const config = parseLocalConfig(demoFlag.rest, process.env);
  const logFormat = resolveLogFormat(config.logFormat, process.stdout.isTTY);
  const firstStart = holdsNoObjects(config.dataDirectory);
  // One write per turn of the event loop, not one per log line (batch-log-output.ts); the banner
  // and the shutdown line go through it too, so they stay in order with the log.
  const stdout = batchLogOutput(process.stdout);
  const stack = await startLocalStack({
    ...config,
    logStream: createLogDestination(logFormat, stdout),
  });
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
  await settle();
  const passwordFile = join(resolve(config.dataDirectory), ADMIN_PASSWORD_FILE);
  stdout.write(
    formatStartBanner({
      gatewayUrl: stack.gatewayUrl,
      metricsUrl: stack.metricsUrl,
      operatorMetricsUrl: stack.operatorMetricsUrl,
      consoleUrl: stack.consoleUrl,
      adminPassword: stack.consoleAdminPassword,
      passwordFile,
      passwordFileExists: existsSync(passwordFile),
      apiUrl: stack.local.apiUrl,
      kubeconfig,
      store: stack.store.kind === 'redis' ? 'redis' : 'memory',
      ledger: config.databaseUrl === undefined ? 'pglite' : 'postgresql',
      demo: demo?.banner,
    }),
  );
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  stdout.write('tollgate local: shutting down\n');
  await stack.close();
  await demo?.close();
  stdout.flush();
}
