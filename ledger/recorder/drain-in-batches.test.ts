import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/support/ledger/wait-until.js';
import { drainInBatches, type DrainOptions } from './drain-in-batches.js';

/** A queue of numbers: `read` hands out what is waiting, `acknowledge` removes it. */
function numbers(count: number) {
  const waiting = Array.from({ length: count }, (_, index) => index);
  const reads: number[][] = [];
  const acknowledged: number[][] = [];
  const failures: { stage: string; message: string }[] = [];
  const options: DrainOptions<number, number, 'tend'> = {
    read: (size) => {
      const batch = waiting.splice(0, size);
      if (batch.length > 0) reads.push(batch);
      return Promise.resolve(batch);
    },
    write: (batch) => Promise.resolve(batch.length),
    acknowledge: (batch) => {
      acknowledged.push([...batch]);
      return Promise.resolve();
    },
    batchSize: 3,
    idleMs: 10,
    gatherMs: 0,
    backoff: { initialMs: 20, maxMs: 40 },
    clock: Date.now,
    onError: (error, stage) => failures.push({ stage, message: (error as Error).message }),
  };
  return { options, reads, acknowledged, failures };
}

describe('drainInBatches', () => {
  it('retries a failed write with the same batch, doubling the pause up to its bound', async () => {
    const queue = numbers(4);
    const attempts: number[] = [];
    const drain = drainInBatches({
      ...queue.options,
      write: (batch) => {
        attempts.push(Date.now());
        if (attempts.length <= 3) return Promise.reject(new Error('ledger away'));
        return Promise.resolve(batch.length);
      },
    });
    await waitUntil('both batches acknowledged', () => queue.acknowledged.length === 2);
    await drain.stop();
    // Read once each: the first batch was kept through three failures, not read again.
    expect(queue.reads).toEqual([[0, 1, 2], [3]]);
    expect(queue.acknowledged).toEqual([[0, 1, 2], [3]]);
    expect(queue.failures).toEqual(Array(3).fill({ stage: 'write', message: 'ledger away' }));
    const pauses = attempts.slice(1, 4).map((at, index) => at - attempts[index]!);
    expect(pauses[0]).toBeGreaterThanOrEqual(19);
    expect(pauses[1]).toBeGreaterThanOrEqual(39);
    expect(pauses[2]).toBeGreaterThanOrEqual(39);
  });

  it('keeps the batch when its acknowledgement fails, and writes it again', async () => {
    const queue = numbers(2);
    let written = 0;
    let failed = false;
    const drain = drainInBatches({
      ...queue.options,
      write: (batch) => Promise.resolve((written += batch.length)),
      acknowledge: (batch, count) => {
        if (!failed) {
          failed = true;
          return Promise.reject(new Error('store away'));
        }
        queue.acknowledged.push([...batch, count]);
        return Promise.resolve();
      },
    });
    await waitUntil('the batch acknowledged', () => queue.acknowledged.length === 1);
    await drain.stop();
    expect(queue.failures).toEqual([{ stage: 'acknowledge', message: 'store away' }]);
    // Written twice (the writes are idempotent), acknowledged with the second write's answer.
    expect(queue.acknowledged).toEqual([[0, 1, 4]]);
    expect(queue.reads).toHaveLength(1);
  });

  it('abandons a retry when stopped during its pause', async () => {
    const queue = numbers(3);
    let attempts = 0;
    const drain = drainInBatches({
      ...queue.options,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
      write: () => {
        attempts++;
        return Promise.reject(new Error('ledger away'));
      },
    });
    await waitUntil('the first failure', () => queue.failures.length === 1);
    const stopping = Date.now();
    await drain.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(attempts).toBe(1);
    expect(queue.acknowledged).toEqual([]);
  });

  it('finishes the batch in progress when stopped, then reads no more', async () => {
    const queue = numbers(6);
    let release: (count: number) => void = () => undefined;
    const writing = new Promise<number>((resolve) => {
      release = resolve;
    });
    const drain = drainInBatches({
      ...queue.options,
      write: () => writing,
      acknowledge: async (batch) => {
        await sleep(50);
        queue.acknowledged.push([...batch]);
      },
    });
    await waitUntil('the first write to start', () => queue.reads.length === 1);
    const stopped = drain.stop();
    release(3);
    await stopped;
    expect(queue.acknowledged).toEqual([[0, 1, 2]]);
    expect(queue.reads).toHaveLength(1);
  });

  it('runs a periodic job when due, before reading, and reports its failure under its stage', async () => {
    const queue = numbers(0);
    let now = 1_000;
    const runs: number[] = [];
    const drain = drainInBatches({
      ...queue.options,
      clock: () => now,
      jobs: [
        {
          stage: 'tend',
          everyMs: 100,
          run: (at) => {
            runs.push(at);
            return runs.length === 1 ? Promise.reject(new Error('not now')) : Promise.resolve();
          },
        },
      ],
    });
    await waitUntil('the job to fail once', () => queue.failures.length === 1);
    expect(queue.failures).toEqual([{ stage: 'tend', message: 'not now' }]);
    // Not again until `everyMs` has passed on the clock, failed or not.
    await sleep(100);
    expect(runs).toEqual([1_000]);
    now = 1_100;
    await waitUntil('the job to run again', () => runs.length === 2);
    await drain.stop();
    expect(runs).toEqual([1_000, 1_100]);
  });
});
