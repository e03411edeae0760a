/**
 * Child process: the fake provider with a fixed first-byte delay and chunk gap. Reports its URL over
 * IPC; takes new behaviours over IPC (the stream-holding phase); forgets recorded requests every
 * second so its memory stays flat under load; exits on `stop` or when the parent goes away.
 */
import type { FakeBehaviour } from '../test/fake-provider/fake-behaviour.js';
import { startFakeProvider } from '../test/fake-provider/start-fake-provider.js';

const behaviour = JSON.parse(process.argv[2] ?? '{}') as FakeBehaviour;
const provider = await startFakeProvider({ credential: null });
provider.setBehaviour(behaviour);
const sweeper = setInterval(() => {
  provider.requests.length = 0;
}, 1000);

const stop = (): void => {
  clearInterval(sweeper);
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
