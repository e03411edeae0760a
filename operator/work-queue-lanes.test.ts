import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';
import { heldGate, recordingQueue } from '../test/support/operator/recording-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkQueue lanes', () => {
  it('serves an urgent key before a bulk queued earlier', async () => {
    const { queue, seen } = recordingQueue({ workers: 1 });
    for (let index = 0; index < 50; index++) queue.add(`bulk-${index}`);
    queue.add('edit', { urgent: true });
    queue.resume();
    await queue.whenIdle();
    expect(seen[0]).toBe('edit');
    expect(seen).toHaveLength(51);
    await queue.stop();
  });

  it('moves a key waiting in the bulk lane up when it is added as urgent, and runs it once', async () => {
    const { queue, seen } = recordingQueue({ workers: 1 });
    for (const key of ['a', 'b', 'c', 'd']) queue.add(key);
    queue.add('c', { urgent: true });
    queue.add('c');
    expect(queue.depth).toBe(4);
    queue.resume();
    await queue.whenIdle();
    expect(seen).toEqual(['c', 'a', 'b', 'd']);
    await queue.stop();
  });

  it('runs an urgent key on its own workers while every bulk worker is busy', async () => {
    const started: string[] = [];
    const { gate, release } = heldGate();
    const queue = new WorkQueue({
      workers: 2,
      urgentWorkers: 1,
      process: async (key) => {
        started.push(key);
        if (key.startsWith('bulk')) await gate;
      },
    });
    queue.resume();
    for (let index = 0; index < 10; index++) queue.add(`bulk-${index}`);
    await sleep(10);
    expect(started).toEqual(['bulk-0', 'bulk-1']);
    queue.add('edit', { urgent: true });
    await sleep(10);
    expect(started).toEqual(['bulk-0', 'bulk-1', 'edit']);
    release();
    await queue.whenIdle();
    expect(started).toHaveLength(11);
    await queue.stop();
  });

  it('reruns a key that turned urgent while it ran in the urgent lane', async () => {
    const seen: string[] = [];
    const { gate, release } = heldGate();
    const queue = new WorkQueue({
      workers: 1,
      process: async (key) => {
        seen.push(key);
        if (seen.length === 1) await gate;
      },
    });
    queue.resume();
    queue.add('k');
    await sleep(5);
    for (let index = 0; index < 5; index++) queue.add(`bulk-${index}`);
    queue.add('k', { urgent: true });
    release();
    await queue.whenIdle();
    expect(seen.slice(0, 2)).toEqual(['k', 'k']);
    await queue.stop();
  });
});
