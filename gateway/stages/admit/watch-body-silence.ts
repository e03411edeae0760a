/**
 * The silence check of plain request bodies (no content-encoding: fastify reads them from the
 * request itself). One timer for every body being read, not one per request: each check compares
 * every watched socket's bytes read with the check before, and a body with nothing new for the
 * whole idle timeout fails fastify's read (the request emits the 408 error fastify listens for); it
 * is cut after 1 to 1.25 timeouts. A body leaves the watch when fastify has read it whole (`release`,
 * from the content parser), when its request ends (from the request's end), or at the next check
 * once its request completed or closed. The timer runs only while some body is watched and never
 * keeps the process alive.
 */
import type { IncomingMessage } from 'node:http';

/** Checks per idle timeout. */
const CHECKS = 4;

interface Watched {
  bytesRead: number;
  quietChecks: number;
}

export class BodySilenceWatch {
  private readonly watched = new Map<IncomingMessage, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(
    idleMs: number,
    private readonly silenceError: () => Error,
  ) {
    this.intervalMs = Math.max(1, Math.ceil(idleMs / CHECKS));
  }

  watch(raw: IncomingMessage): void {
    // The timer's next check may come at once: it does not count, as a check that saw new bytes
    // does not, so the body is cut after 1 to 1.25 timeouts of silence, never sooner.
    this.watched.set(raw, { bytesRead: raw.socket.bytesRead, quietChecks: -1 });
    if (this.timer === undefined) {
      this.timer = setInterval(() => {
        this.check();
      }, this.intervalMs);
      this.timer.unref();
    }
  }

  /** The body was read whole, or its request ended: nothing to watch any more. */
  release(raw: IncomingMessage): void {
    this.watched.delete(raw);
  }

  /** Bodies still watched (for tests). */
  get size(): number {
    return this.watched.size;
  }

  private check(): void {
    for (const [raw, watched] of this.watched) {
      if (raw.complete || raw.destroyed) {
        this.watched.delete(raw);
        continue;
      }
      const { bytesRead } = raw.socket;
      if (bytesRead !== watched.bytesRead) {
        watched.bytesRead = bytesRead;
        watched.quietChecks = 0;
        continue;
      }
      watched.quietChecks += 1;
      if (watched.quietChecks < CHECKS) continue;
      this.watched.delete(raw);
      // Fastify reads the body through these listeners; one that is gone has nobody to tell.
      if (raw.listenerCount('error') > 0) raw.emit('error', this.silenceError());
    }
    if (this.watched.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
