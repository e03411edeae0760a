import type { UpstreamWireFormat } from '../spec/protocol-adapter.js';
import type { CaptureReplyBudget } from './capture-reply-budget.js';

/**
 * The bytes of a reply the caller received, kept for its capture (docs/captures.md): only when the
 * key's capture settings ask for responses, created by the reply stage and read at the request's
 * end. Keeping a chunk is one push (no copy, no parse); the message is rebuilt at the end
 * (reassemble-reply.ts). Bounded twice: past `limitBytes`, or past what the process-wide budget
 * (capture-reply-budget.ts) holds, the rest is not kept; `release` gives its bytes back to the
 * budget once the request's end has read them.
 */
export class ReplyCollector {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  /** True when part of the reply was not kept (past the limit or the budget). */
  overflowed = false;
  private released = false;

  constructor(
    /** The caller's wire format (its reassembler rebuilds a stream). */
    readonly format: UpstreamWireFormat,
    private readonly limitBytes: number,
    private readonly budget: CaptureReplyBudget,
  ) {}

  add(chunk: Buffer): void {
    if (
      this.released ||
      this.bytes + chunk.length > this.limitBytes ||
      !this.budget.take(chunk.length)
    ) {
      this.overflowed = true;
      return;
    }
    this.bytes += chunk.length;
    this.chunks.push(chunk);
  }

  /** Gives the kept bytes back to the budget (once; nothing is kept after it). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.bytes);
  }
}

/**
 * How much of a reply is kept: a stream's frames take several times its message's size, so the
 * limit is well above the body limit; a stream past it is rebuilt from what was kept.
 */
export function replyCollectorLimit(maxBytes: number): number {
  return Math.max(16 * maxBytes, 4 * 1024 * 1024);
}
