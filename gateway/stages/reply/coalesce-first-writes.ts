/**
 * A relayed reply's first writes in one socket write. The upstream's headers, its first chunk and,
 * for a short stream, its end usually arrive in one read, and the relay hands them on in that same
 * turn of the event loop: uncorked, the response's head and first chunk leave in one write and the
 * chunked terminator (`0\r\n\r\n`) in another, a second system call per stream. Corked until the
 * turn's check phase they leave together; `end()` uncorks fully by itself, and a longer stream's
 * later chunks go out as they come, so nothing waits longer than the turn that produced it.
 */
import type { ServerResponse } from 'node:http';

export function coalesceFirstWrites(response: ServerResponse): void {
  response.cork();
  setImmediate(uncork, response);
}

function uncork(response: ServerResponse): void {
  // A response that ended has uncorked already (end() flushes fully); a second uncork is a no-op.
  if (!response.writableEnded) response.uncork();
}
