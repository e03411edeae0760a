/**
 * Adapters that run a `StreamTap` over a body while passing every chunk on unchanged: one for Web
 * `ReadableStream`s, one for async iterables (undici response bodies). The outcome promise resolves
 * exactly once: at the end of the source, on cancel by the consumer, or on a source error.
 */
import type { StreamTap, TapOutcome } from './create-stream-tap.js';

export interface TappedReadableStream<R> {
  stream: ReadableStream<Uint8Array>;
  outcome: Promise<TapOutcome<R>>;
}

export function tapReadableStream<R>(
  source: ReadableStream<Uint8Array>,
  tap: StreamTap<R>,
): TappedReadableStream<R> {
  const reader = source.getReader();
  let resolve: (outcome: TapOutcome<R>) => void = () => undefined;
  const outcome = new Promise<TapOutcome<R>>((settle) => {
    resolve = settle;
  });
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            resolve(tap.finish({ sourceEnded: true }));
            controller.close();
            return;
          }
          tap.write(next.value);
          controller.enqueue(next.value);
        } catch (error) {
          resolve(tap.finish({ sourceEnded: false }));
          controller.error(error);
        }
      },
      async cancel(reason) {
        resolve(tap.finish({ sourceEnded: false }));
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, outcome };
}

/**
 * Yields the source's chunks unchanged. `onOutcome` runs once, when the source ends, fails, or the
 * consumer stops iterating (`return()`), so settlement can hang off it.
 */
export async function* tapAsyncIterable<R>(
  source: AsyncIterable<Uint8Array>,
  tap: StreamTap<R>,
  onOutcome: (outcome: TapOutcome<R>) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  let sourceEnded = false;
  try {
    for await (const chunk of source) {
      tap.write(chunk);
      yield chunk;
    }
    sourceEnded = true;
  } finally {
    onOutcome(tap.finish({ sourceEnded }));
  }
}
