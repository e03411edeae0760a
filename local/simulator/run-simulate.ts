/**
 * `tollgate simulate --port P [--host H] [--credential K]`: runs the fake provider standalone for
 * trying clients without spending money. It accepts any upstream credential (API keys and the
 * OAuth refresh token) unless `--credential` names the one to require. Prints its URL; stops on
 * SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startFakeProvider } from './start-fake-provider.js';

export async function run(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      credential: { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a port number, got '${values.port}'`);
  }
  const credential = values.credential ?? null;
  const provider = await startFakeProvider({
    port,
    host: values.host,
    credential,
    // The OAuth refresh token is an upstream credential too: any, unless --credential names it.
    oauth: { refreshToken: credential },
  });
  process.stdout.write(`tollgate simulate: fake provider listening on ${provider.url}\n`);
  const accepted = values.credential ?? 'any';
  process.stdout.write(`tollgate simulate: upstream credential ${accepted}; Ctrl-C stops\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await provider.close();
}
