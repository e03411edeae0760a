/**
 * `tollgate local`'s stdout, written a few times a second instead of once per line. The gateway logs
 * a line per call, and stdout into a file or a pipe is written synchronously on Linux: a `write`
 * system call for every call, on the request thread. Here lines wait at most `maxDelayMs` (20 ms)
 * and are written together with one call, or as soon as they reach `maxBuffered` characters (64 k).
 * Order is kept: everything goes through the same buffer, the start banner included. What is
 * still buffered when the process exits is written then (`exit` runs synchronous code only, and
 * stdout into a file, a pipe or a terminal is written synchronously); a process killed outright
 * loses at most the last `maxDelayMs` of lines.
 */
import type { LogOutput } from './create-log-destination.js';

export interface BatchedLogOutput extends LogOutput {
  /** Writes what is buffered now. */
  flush(): void;
}

/** Beyond this many buffered characters the lines are written at once. */
const DEFAULT_MAX_BUFFERED = 64 * 1024;

/** The longest a line waits. */
const DEFAULT_MAX_DELAY_MS = 20;

export function batchLogOutput(
  output: LogOutput,
  options: {
    maxBuffered?: number;
    maxDelayMs?: number;
    onExit?: (flush: () => void) => void;
  } = {},
): BatchedLogOutput {
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  let buffered: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffered.length === 0) return;
    const text = buffered.length === 1 ? (buffered[0] ?? '') : buffered.join('');
    buffered = [];
    size = 0;
    output.write(text);
  };
  (options.onExit ?? ((run) => process.once('exit', run)))(flush);
  return {
    ...(output.isTTY === undefined ? {} : { isTTY: output.isTTY }),
    write(text) {
      buffered.push(text);
      size += text.length;
      if (size >= maxBuffered) flush();
      else if (timer === null) {
        timer = setTimeout(flush, maxDelayMs);
        // Waiting lines never keep the process alive: `exit` writes them.
        timer.unref();
      }
      return true;
    },
    flush,
  };
}
