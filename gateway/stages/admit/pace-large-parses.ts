/**
 * Large request bodies are parsed a bounded number of bytes per turn of the event loop. Decoding a
 * body and `JSON.parse` cost several ms per MB, all of it on the event loop: when 200 calls with
 * 1 MB prompts arrived together their parses ran back to back in the same turns, and every other
 * call (each step of which waits for a turn) waited seconds for them (docs/benchmarks.md, "Burst
 * start"). A body up to `IMMEDIATE_BYTES` is parsed at once, as before (nearly every call: no
 * promise, no queue). A larger one waits in a queue drained on `setImmediate`: each turn parses
 * the bodies that fit in `BYTES_PER_TURN` (always at least one), then yields, so the I/O of the
 * other calls runs between two large parses.
 */

/** Bodies up to this size are parsed at once. */
export const IMMEDIATE_BYTES = 64 * 1024;
/** The most body bytes parsed in one turn of the event loop (a larger body alone in its turn). */
export const BYTES_PER_TURN = 1024 * 1024;

export interface ParsePacer {
  /** Runs `work` (the parse of a body of `bytes` bytes) now when the body is small, else in turn. */
  run<T>(bytes: number, work: () => T): T | Promise<T>;
  /** Large parses waiting for their turn. */
  readonly waiting: number;
}

interface Waiting {
  bytes: number;
  work: () => void;
}

export function createParsePacer(
  bounds: { immediateBytes: number; bytesPerTurn: number } = {
    immediateBytes: IMMEDIATE_BYTES,
    bytesPerTurn: BYTES_PER_TURN,
  },
): ParsePacer {
  const queue: (Waiting | undefined)[] = [];
  let head = 0;
  let scheduled = false;

  const drain = (): void => {
    scheduled = false;
    let spent = 0;
    for (let next = queue[head]; next !== undefined; next = queue[head]) {
      if (spent > 0 && spent + next.bytes > bounds.bytesPerTurn) break;
      queue[head] = undefined;
      head += 1;
      spent += next.bytes;
      next.work();
    }
    if (head === queue.length || head > 1024) {
      // Forget the parsed entries (all of them, or a long run kept waiting by a steady stream).
      queue.splice(0, head);
      head = 0;
    }
    if (queue.length > 0) schedule();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };

  return {
    run<T>(bytes: number, work: () => T): T | Promise<T> {
      if (bytes <= bounds.immediateBytes) return work();
      return new Promise<T>((resolve, reject) => {
        queue.push({
          bytes,
          work: () => {
            try {
              resolve(work());
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          },
        });
        schedule();
      });
    },
    get waiting() {
      return queue.length - head;
    },
  };
}
