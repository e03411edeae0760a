/**
 * Records a V8 CPU profile of this process between two IPC messages (`profile-start`,
 * `profile-stop` with a file path), so the profile covers the load only, not start-up and module
 * loading. Used by the one-worker bench gateway.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

type ProfileMessage = { type: 'profile-start' } | { type: 'profile-stop'; path: string };

export function answerProfileRequests(): void {
  const session = new Session();
  const handle = async (message: ProfileMessage): Promise<void> => {
    if (message.type === 'profile-start') {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.send?.({ type: 'profile-started' });
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(message.path, JSON.stringify(profile));
    session.disconnect();
    process.send?.({ type: 'profile-written' });
  };
  process.on('message', (message: { type?: unknown }) => {
    if (message.type !== 'profile-start' && message.type !== 'profile-stop') return;
    handle(message as ProfileMessage).catch((error: unknown) => {
      process.send?.({ type: 'profile-failed', message: String(error) });
    });
  });
}
