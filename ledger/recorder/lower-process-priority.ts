/**
 * `tollgate recorder` lowers its own CPU priority at start (as `nice -n <by>` would), so that where
 * it shares a core with the gateway (one machine, one scheduling group) the scheduler serves the
 * calls first and the recorder's batches wait instead of delaying them. Linux keeps a niceness per
 * thread: the threads already running (V8's compiler and garbage-collector helpers, libuv's pool
 * when started) are raised one by one from `/proc/self/task`; threads started later inherit the
 * main thread's. A niceness is only ever raised (which needs no privilege), up to 19. Elsewhere
 * the process's priority is raised.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The lowest priority there is (the highest niceness). */
const LOWEST = 19;

export interface LoweredPriority {
  /** Threads whose niceness was raised. */
  threads: number;
  /** Threads left as they were (at 19 already, or gone meanwhile). */
  unchanged: number;
}

/** Raises the niceness of every thread of this process by `by` (0: does nothing). */
export function lowerProcessPriority(by: number): LoweredPriority {
  const result: LoweredPriority = { threads: 0, unchanged: 0 };
  if (by <= 0) return result;
  const raise = (id: number): void => {
    const current = getPriority(id);
    const next = Math.min(LOWEST, current + by);
    if (next <= current) {
      result.unchanged++;
      return;
    }
    setPriority(id, next);
    result.threads++;
  };
  let ids: number[];
  try {
    ids = readdirSync('/proc/self/task').map(Number).filter(Number.isInteger);
  } catch {
    // No procfs (not Linux): the whole process at once.
    raise(0);
    return result;
  }
  for (const id of ids) {
    try {
      raise(id);
    } catch {
      // The thread ended meanwhile.
      result.unchanged++;
    }
  }
  return result;
}
