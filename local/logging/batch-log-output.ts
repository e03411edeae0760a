/**
 * `tollgate local`'s stdout, written once per turn of the event loop instead of once per line. The
 * gateway logs a line per call, and stdout into a file or a pipe is written synchronously on Linux:
 * a `write` system call for every call, on the request thread. Here the lines of a turn are joined
 * and written with one call when the turn ends (`setImmediate`), or as soon as they reach
 * `maxBytes`. Order is kept: everything goes through the same buffer, the start banner included.
 * What is still buffered when the process exits is written then (`exit` runs synchronous code only,
 * and stdout into a file, a pipe or a terminal is written synchronously).
 */
import type { LogOutput } from './create-log-destination.js';

export interface BatchedLogOutput extends LogOutput {
  /** Writes what is buffered now. */
  flush(): void;
}

/** Beyond this many buffered characters the lines are written at once. */
const DEFAULT_MAX_BUFFERED = 64 * 1024;

export function batchLogOutput(
  output: LogOutput,
  options: { maxBuffered?: number; onExit?: (flush: () => void) => void } = {},
): BatchedLogOutput {
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  let buffered: string[] = [];
  let size = 0;
  let scheduled = false;
  const flush = (): void => {
    if (buffered.length === 0) return;
    const text = buffered.length === 1 ? (buffered[0] ?? '') : buffered.join('');
    buffered = [];
    size = 0;
    output.write(text);
  };
  const onTurnEnd = (): void => {
    scheduled = false;
    flush();
  };
  (options.onExit ?? ((run) => process.once('exit', run)))(flush);
  return {
    ...(output.isTTY === undefined ? {} : { isTTY: output.isTTY }),
    write(text) {
      buffered.push(text);
      size += text.length;
      if (size >= maxBuffered) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(onTurnEnd);
      }
      return true;
    },
    flush,
  };
}
