/** `tollgate console`: parse the configuration, open the ledger when configured, listen, drain. */
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { build } from './app.js';
import { parseConsoleConfig } from './console-config.js';

export async function run(args: readonly string[]): Promise<void> {
  const config = parseConsoleConfig(args, process.env);
  const ledger =
    config.databaseUrl === undefined
      ? undefined
      : await openLedgerDatabase({ databaseUrl: config.databaseUrl }, { migrate: false });
  const app = build(config, ledger === undefined ? {} : { ledger });
  if (ledger !== undefined) app.addHook('onClose', () => ledger.close());
  await app.listen({ host: config.host, port: config.port });
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
