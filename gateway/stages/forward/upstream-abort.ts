/**
 * Aborts the upstream request under way when the client goes away. undici takes an EventEmitter
 * with an `aborted` flag as a request's `signal` (its documented alternative to an AbortSignal),
 * which costs a tenth of an AbortController and its listener per call (docs/benchmarks.md
 * as of 1a81819, "Hot path"). Aborting twice does nothing more.
 */
import { EventEmitter } from 'node:events';

export class UpstreamAbort extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}
