/**
 * Records a V8 CPU profile of this process between two IPC messages (`profile-start`,
 * `profile-stop` with a file path), so the profile covers the load only, not start-up and module
 * loading. Used by the one-worker bench gateway.
 */
import { answerInspectorRequests } from './answer-inspector-requests.js';

export function answerProfileRequests(): void {
  answerInspectorRequests({
    name: 'profile',
    begin: async (session) => {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    },
    end: async (session) => (await session.post('Profiler.stop')).profile,
  });
}
