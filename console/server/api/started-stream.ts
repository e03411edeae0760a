/**
 * A stream for a reply whose first chunk is already read. A source that fails at once (a ledger that
 * cannot be read) then fails before the reply's status and headers are sent, so the caller gets an
 * error answer instead of a 200 that is cut after its header.
 */
import { Readable } from 'node:stream';

export async function startedStream(chunks: AsyncIterable<string>): Promise<Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* all(): AsyncGenerator<string> {
    try {
      if (first.done === true) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // A client that leaves early ends the source too (its query pages stop).
      await iterator.return?.();
    }
  }
  return Readable.from(all());
}
