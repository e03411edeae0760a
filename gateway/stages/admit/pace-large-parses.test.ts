import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_TURN, createParsePacer, IMMEDIATE_BYTES } from './pace-large-parses.js';

const MB = 1_000_000;

describe('createParsePacer', () => {
  it('parses a small body at once, with no promise', () => {
    const pacer = createParsePacer();
    expect(pacer.run(IMMEDIATE_BYTES, () => 'parsed')).toBe('parsed');
    expect(pacer.waiting).toBe(0);
  });

  it('parses large bodies one turn of the event loop at a time, in arrival order', async () => {
    const pacer = createParsePacer();
    const parsed: number[] = [];
    const runs = [0, 1, 2, 3, 4].map((index) =>
      pacer.run(MB, () => {
        parsed.push(index);
        return index;
      }),
    );
    expect(parsed).toEqual([]);
    expect(pacer.waiting).toBe(5);
    const perTurn: number[] = [];
    while (pacer.waiting > 0) {
      const before = parsed.length;
      await nextTurn();
      perTurn.push(parsed.length - before);
    }
    expect(perTurn).toEqual([1, 1, 1, 1, 1]);
    expect(await Promise.all(runs.map((run) => Promise.resolve(run)))).toEqual([0, 1, 2, 3, 4]);
    expect(parsed).toEqual([0, 1, 2, 3, 4]);
  });

  it('parses no more than its byte budget per turn, and a larger body alone', async () => {
    const pacer = createParsePacer({ immediateBytes: 10, bytesPerTurn: 100 });
    const parsed: number[] = [];
    const sizes = [40, 40, 40, 500, 30];
    const runs = sizes.map((bytes) =>
      pacer.run(bytes, () => {
        parsed.push(bytes);
      }),
    );
    const perTurn: number[][] = [];
    while (pacer.waiting > 0) {
      const before = parsed.length;
      await nextTurn();
      perTurn.push(parsed.slice(before));
    }
    await Promise.all(runs.map((run) => Promise.resolve(run)));
    expect(perTurn).toEqual([[40, 40], [40], [500], [30]]);
  });

  it('rejects the call whose parse throws, and goes on with the others', async () => {
    const pacer = createParsePacer();
    const failing = pacer.run(BYTES_PER_TURN, () => {
      throw new Error('not JSON');
    });
    const next = pacer.run(BYTES_PER_TURN, () => 'parsed');
    await expect(failing).rejects.toThrow('not JSON');
    await expect(next).resolves.toBe('parsed');
  });
});
