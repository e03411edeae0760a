/**
 * The first-output wait (docs/upstream-pools.md, "First output"): after a streamed reply's 2xx
 * headers, the attempt reads the body until its first output before the reply is committed: for
 * server-sent events the first complete event (detect-first-event.ts), for any other stream (a
 * Gemini JSON array) the first body bytes. The chunks read are put back at the head of the body
 * (`unshift`, the same buffers, no copy), so the reply stage relays and meters them as if nothing
 * had read them; the body is left paused, and the relay resumes it when its reader pulls
 * (relay-metered-reply.ts). When no output comes in time, or the body ends or breaks first, the body is left
 * to the caller to abort: nothing of it has reached the client.
 */
import type { Readable } from 'node:stream';
import { FirstEventDetector } from './detect-first-event.js';

export type FirstOutput =
  { kind: 'output' } | { kind: 'timeout' } | { kind: 'ended' } | { kind: 'failed'; error: unknown };

export interface FirstOutputWait {
  /** The reply is server-sent events: wait for a complete event, not just bytes. */
  sse: boolean;
  timeoutMs: number;
}

export function awaitFirstOutput(body: Readable, wait: FirstOutputWait): Promise<FirstOutput> {
  return new Promise<FirstOutput>((resolve) => {
    const detector = wait.sse ? new FirstEventDetector() : null;
    const read: Buffer[] = [];
    const finish = (result: FirstOutput): void => {
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      resolve(result);
    };
    // `data` events, not `read()`: a paused stream joins (copies) the chunks it holds into one.
    function onData(chunk: Buffer): void {
      read.push(chunk);
      if (detector !== null && !detector.feed(chunk)) return;
      // Paused again (explicitly): the reply stage's relay resumes it when its reader pulls.
      body.pause();
      for (let index = read.length - 1; index >= 0; index--) body.unshift(read[index]);
      finish({ kind: 'output' });
    }
    function onEnd(): void {
      finish({ kind: 'ended' });
    }
    function onError(error: unknown): void {
      finish({ kind: 'failed', error });
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
    }, wait.timeoutMs);
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}
