/**
 * Where `tollgate gateway` writes its log (stdout), buffered: lines are gathered until 8 KB are
 * waiting, and at least every half second, then written in one `write`. pino's default destination
 * writes each line on its own as soon as the previous write is done; below saturation that is one
 * write per access-log line, each a round trip through libuv's thread pool (a futex wake of a pool
 * thread, the write, an eventfd write back, one more turn of the event loop). Measured on the
 * deployed gateway at 200 calls/s (`strace -c -f`, bench/macro/probe-deployed-tail.ts), per call:
 * futex 5.1 to 1.0, write 2.5 to 0.8, read 4.1 to 3.2 (docs/commands/gateway.md). Buffered lines
 * are written synchronously when the process exits (pino's exit handler); a process killed with
 * SIGKILL loses at most the last half second.
 */
import { pino } from 'pino';

/** Bytes gathered before a write. */
export const LOG_BUFFER_BYTES = 8192;
/** The longest a line waits for its write (ms). */
export const LOG_FLUSH_MS = 500;

export function openLogDestination(fd = 1): ReturnType<typeof pino.destination> {
  return pino.destination({
    dest: fd,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}
