/**
 * `tollgate simulate --port P [--host H] [--credential K | --any-credential]`: runs the fake provider standalone for
 * trying clients without spending money. Prints its URL; stops on SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_FAKE_CREDENTIAL, startFakeProvider } from './start-fake-provider.js';

export async function run(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      credential: { type: 'string' },
      'any-credential': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a port number, got '${values.port}'`);
  }
  const provider = await startFakeProvider({
    port,
    host: values.host,
    ...(values['any-credential'] ? { credential: null } : {}),
    ...(values.credential === undefined ? {} : { credential: values.credential }),
  });
  process.stdout.write(`tollgate simulate: fake provider listening on ${provider.url}\n`);
  const accepted = values['any-credential']
    ? 'any'
    : (values.credential ?? DEFAULT_FAKE_CREDENTIAL);
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
