/**
 * The bytes of replies kept for their capture by all the requests in flight together
 * (`--capture-reply-budget-bytes`, docs/captures.md "Bounds"): each reply collector takes from it
 * as it keeps a chunk and gives back what it kept once the request's end has read it. A chunk the
 * budget cannot hold is not kept: that reply's capture is truncated, the process's memory is not
 * grown. One per process; plain arithmetic on the event loop's thread.
 */
export class CaptureReplyBudget {
  /** Bytes held by collectors now. */
  usedBytes = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes `bytes` when they fit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.usedBytes + bytes > this.limitBytes) return false;
    this.usedBytes += bytes;
    return true;
  }

  give(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes);
  }
}
