/**
 * Samples this process's allocations between two IPC messages (`allocations-start`,
 * `allocations-stop` with a file path): V8's sampling heap profiler keeping the objects minor and
 * major garbage collections freed, so the profile is what was allocated, not what is still alive;
 * or, with `survivorsOnly`, leaving out what a minor collection freed: what outlived the young
 * generation (promoted, or still alive at the end), which is what makes the old generation grow.
 * Used by the one-worker bench gateway (`bench/profile/profile-allocations.ts`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { answerInspectorRequests } from './answer-inspector-requests.js';

/** Bytes between samples: small enough for a few samples per call at a thousand calls a second. */
const SAMPLING_INTERVAL_BYTES = 4096;

/**
 * A minor collection on demand: without one before the profile stops, what the last calls
 * allocated since the last scavenge (dead or not) would be counted as having outlived one, up to
 * a whole scavenge interval's allocation (several KB per call at 200 calls a second).
 */
function minorCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
  return () => {
    gc({ type: 'minor', execution: 'sync' });
  };
}

export function answerAllocationRequests(): void {
  let survivorsOnly = false;
  answerInspectorRequests<{ type: string; survivorsOnly?: boolean }>({
    name: 'allocations',
    begin: async (session, message) => {
      survivorsOnly = message.survivorsOnly === true;
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: !survivorsOnly,
      });
    },
    end: async (session) => {
      if (survivorsOnly) minorCollection()();
      return (await session.post('HeapProfiler.stopSampling')).profile;
    },
  });
}
