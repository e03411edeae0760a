/**
 * Samples this process's allocations between two IPC messages (`allocations-start`,
 * `allocations-stop` with a file path): V8's sampling heap profiler keeping the objects minor and
 * major garbage collections freed, so the profile is what was allocated, not what is still alive;
 * or, with `survivorsOnly`, leaving out what a minor collection freed: what outlived the young
 * generation (promoted, or still alive at the end), which is what makes the old generation grow.
 * Used by the one-worker bench gateway (`bench/profile/profile-allocations.ts`).
 */
import { answerInspectorRequests } from './answer-inspector-requests.js';

/** Bytes between samples: small enough for a few samples per call at a thousand calls a second. */
const SAMPLING_INTERVAL_BYTES = 4096;

export function answerAllocationRequests(): void {
  answerInspectorRequests<{ type: string; survivorsOnly?: boolean }>({
    name: 'allocations',
    begin: async (session, message) => {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: message.survivorsOnly !== true,
      });
    },
    end: async (session) => (await session.post('HeapProfiler.stopSampling')).profile,
  });
}
