/**
 * `tollgate console`: parse the configuration, open the ledger and the store when configured, listen (and serve
 * the metrics on their own port when `--metrics-port` is set), drain.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { serveMetrics } from '../../ledger/serve-metrics.js';
import { createStore } from '../../store/create-store.js';
import { build } from './app.js';
import { parseConsoleConfig } from './console-config.js';

export async function run(args: readonly string[]): Promise<void> {
  const config = parseConsoleConfig(args, process.env);
  const ledger =
    config.databaseUrl === undefined
      ? undefined
      : await openLedgerDatabase({ databaseUrl: config.databaseUrl }, { migrate: false });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tollgate_console_' });
  // With Redis, the dashboard reads the account's live counters from the gateway's store there.
  const store =
    config.redisUrl === undefined
      ? undefined
      : await createStore({
          redisUrl: config.redisUrl,
          ...(config.redisPrefix !== undefined ? { prefix: config.redisPrefix } : {}),
        });
  const app = build(config, {
    registry,
    ...(ledger !== undefined ? { ledger } : {}),
    ...(store !== undefined ? { store } : {}),
  });
  if (ledger !== undefined) app.addHook('onClose', () => ledger.close());
  if (store !== undefined) app.addHook('onClose', () => store.close());
  await app.listen({ host: config.host, port: config.port });
  if (config.publicOrigins.length === 0) {
    app.log.warn(
      'no public origins set (--public-origins, TOLLGATE_CONSOLE_PUBLIC_ORIGINS): sign-in and changes are accepted only from the console opened at its own address on this machine (http://localhost:<port>)',
    );
  }
  const metrics =
    config.metricsPort === undefined
      ? undefined
      : await serveMetrics(registry, {
          port: config.metricsPort,
          host: config.metricsHost,
          healthz: false,
        });
  if (metrics !== undefined) app.log.info(`metrics listening at ${metrics.url}`);
  const stop = (): void => {
    Promise.all([app.close(), metrics?.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
