import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';
import { recordingQueue } from '../test/support/operator/recording-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkQueue', () => {
  it('processes keys FIFO and does not queue a waiting key twice', async () => {
    const { queue, seen } = recordingQueue({ workers: 1 });
    for (const key of ['a', 'b', 'a', 'c', 'b']) queue.add(key);
    queue.resume();
    await queue.whenIdle();
    expect(seen).toEqual(['a', 'b', 'c']);
    await queue.stop();
  });

  it('never runs one key twice at once, and reruns a key added while it ran', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const queue = new WorkQueue({
      workers: 4,
      process: async () => {
        running++;
        runs++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(20);
        running--;
      },
    });
    queue.resume();
    queue.add('k');
    await sleep(5);
    queue.add('k');
    queue.add('k');
    await sleep(100);
    await queue.whenIdle();
    expect(maxRunning).toBe(1);
    expect(runs).toBe(2);
    await queue.stop();
  });

  it('runs different keys in parallel up to the worker count', async () => {
    let running = 0;
    let maxRunning = 0;
    const queue = new WorkQueue({
      workers: 2,
      process: async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(20);
        running--;
      },
    });
    for (const key of ['a', 'b', 'c', 'd']) queue.add(key);
    queue.resume();
    await queue.whenIdle();
    expect(maxRunning).toBe(2);
    await queue.stop();
  });

  it('retries failures with growing backoff until they succeed', async () => {
    const times: number[] = [];
    const queue = new WorkQueue({
      workers: 1,
      baseRetryMs: 20,
      process: (key) => {
        times.push(Date.now());
        return times.length < 3 ? Promise.reject(new Error(`fail ${key}`)) : Promise.resolve();
      },
    });
    queue.resume();
    queue.add('x');
    const deadline = Date.now() + 2000;
    while (times.length < 3 && Date.now() < deadline) await sleep(10);
    expect(times).toHaveLength(3);
    const [t0 = 0, t1 = 0, t2 = 0] = times;
    expect(t1 - t0).toBeGreaterThanOrEqual(15);
    expect(t2 - t1).toBeGreaterThanOrEqual(35);
    await sleep(100);
    expect(times).toHaveLength(3);
    await queue.stop();
  });

  it('holds work while paused; addAfter keeps the earliest timer per key', async () => {
    const { queue, seen } = recordingQueue();
    queue.add('p');
    await sleep(20);
    expect(seen).toEqual([]);
    queue.resume();
    await queue.whenIdle();
    expect(seen).toEqual(['p']);
    queue.addAfter('later', 1000);
    queue.addAfter('later', 30);
    queue.addAfter('later', 500);
    await sleep(80);
    expect(seen).toEqual(['p', 'later']);
    await queue.stop();
  });
});
