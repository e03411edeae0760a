/** Test support for the work queue: a queue that records what it processes, and a gate. */
import { WorkQueue, type WorkQueueOptions } from '../../../operator/work-queue.js';

/** A queue whose processing records each key it is given, in order, and succeeds. */
export function recordingQueue(options: Omit<WorkQueueOptions, 'process'> = {}) {
  const seen: string[] = [];
  const queue = new WorkQueue({
    ...options,
    process: (key) => {
      seen.push(key);
      return Promise.resolve();
    },
  });
  return { queue, seen };
}

/** A promise that stays pending until `release()`. */
export function heldGate(): { gate: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}
