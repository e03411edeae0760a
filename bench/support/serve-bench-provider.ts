/**
 * Child process: the fake provider with a fixed first-byte delay and chunk gap. Reports its URL over
 * IPC; takes new behaviours over IPC (the stream-holding phase); keeps none of the requests it
 * answers, so its memory stays flat under load; exits on `stop` or when the parent goes away.
 *
 * Keep-alive: the fake provider idles connections out after 1 s, which is below undici's 2 s
 * keep-alive threshold, so every undici client (the gateway's pools included) would open a new
 * connection per request. Real providers keep connections far longer; the bench gives the fake a
 * 65 s keep-alive by wrapping `http.createServer` before the fake provider module loads.
 */
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { FakeBehaviour } from '../../local/simulator/fake-behaviour.js';

const KEEP_ALIVE_MS = 65_000;
const originalCreateServer = http.createServer;
http.createServer = ((...args: Parameters<typeof http.createServer>) => {
  const server = originalCreateServer(...args);
  Object.defineProperty(server, 'keepAliveTimeout', {
    get: () => KEEP_ALIVE_MS,
    set: () => undefined,
    configurable: true,
  });
  return server;
}) as typeof http.createServer;
syncBuiltinESMExports();
const { startFakeProvider } = await import('../../local/simulator/start-fake-provider.js');

const behaviour = JSON.parse(process.argv[2] ?? '{}') as FakeBehaviour;
const provider = await startFakeProvider({ credential: null });
provider.setBehaviour(behaviour);

const stop = (): void => {
  void provider.close().finally(() => process.exit(0));
};
process.on(
  'message',
  (message: { type: 'behaviour'; behaviour: FakeBehaviour } | { type: 'stop' }) => {
    if (message.type === 'stop') stop();
    else {
      provider.setBehaviour(message.behaviour);
      process.send?.({ type: 'behaviour-set' });
    }
  },
);
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.send?.({ type: 'ready', url: provider.url });
