/**
 * Samples this process's allocations between two IPC messages (`allocations-start`,
 * `allocations-stop` with a file path): V8's sampling heap profiler keeping the objects minor and
 * major garbage collections freed, so the profile is what was allocated, not what is still alive;
 * or, with `survivorsOnly`, leaving out what a minor collection freed: what outlived the young
 * generation (promoted, or still alive at the end), which is what makes the old generation grow.
 * Used by the one-worker bench gateway (`bench/profile-allocations.ts`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

type AllocationMessage =
  | { type: 'allocations-start'; survivorsOnly?: boolean }
  | { type: 'allocations-stop'; path: string };

/** Bytes between samples: small enough for a few samples per call at a thousand calls a second. */
const SAMPLING_INTERVAL_BYTES = 4096;

export function answerAllocationRequests(): void {
  const session = new Session();
  const handle = async (message: AllocationMessage): Promise<void> => {
    if (message.type === 'allocations-start') {
      session.connect();
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: message.survivorsOnly !== true,
      });
      process.send?.({ type: 'allocations-started' });
      return;
    }
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(message.path, JSON.stringify(profile));
    session.disconnect();
    process.send?.({ type: 'allocations-written' });
  };
  process.on('message', (message: { type?: unknown }) => {
    if (message.type !== 'allocations-start' && message.type !== 'allocations-stop') return;
    handle(message as AllocationMessage).catch((error: unknown) => {
      process.send?.({ type: 'allocations-failed', message: String(error) });
    });
  });
}
