import { describe, expect, it } from 'vitest';
import { busyMsBetween, findStallWindows, type StallProfile } from './find-stall-windows.js';

const node = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0 },
  children,
});

/**
 * root → idle; root → processTimers → write (store) → serialize; root → GC. Samples 1 ms apart
 * unless given: `[node id, µs since the previous sample]`.
 */
function profileOf(samples: [number, number][]): StallProfile {
  const endTime = samples.reduce((sum, [, delta]) => sum + delta, 0) + 1000;
  return {
    nodes: [
      node(1, '(root)', '', [2, 3, 6]),
      node(2, '(idle)', ''),
      node(3, 'processTimers', 'node:internal/timers', [4]),
      node(4, 'write', 'file:///w/store/memory-store.ts', [5]),
      node(5, 'serializeState', 'file:///w/store/memory-state.ts'),
      node(6, '(garbage collector)', ''),
    ],
    startTime: 0,
    endTime,
    samples: samples.map(([id]) => id),
    timeDeltas: samples.map(([, delta]) => delta),
  };
}

const ms = (count: number, id: number): [number, number][] =>
  Array.from({ length: count }, () => [id, 1000]);

describe('findStallWindows', () => {
  it('finds the runs of samples off (idle) longer than the threshold, with what filled them', () => {
    const profile = profileOf([
      ...ms(5, 2),
      // 12 ms busy: 8 in serializeState, 4 in the collector (3 of them in a row).
      ...ms(4, 5),
      ...ms(3, 6),
      ...ms(4, 5),
      ...ms(1, 6),
      ...ms(5, 2),
      // 3 ms busy: under the threshold.
      ...ms(3, 4),
      ...ms(2, 2),
    ]);
    const report = findStallWindows(profile, { thresholdMs: 10 });
    expect(report.stalls).toHaveLength(1);
    const [stall] = report.stalls;
    expect(stall).toMatchObject({
      atMs: 6,
      ms: 12,
      garbageCollectorMs: 4,
      longestCollectionMs: 3,
      gapMs: 0,
    });
    expect(stall?.functions).toEqual([
      { name: 'serializeState store/memory-state.ts:1', ms: 8 },
      { name: '(garbage collector)', ms: 4 },
    ]);
    expect(stall?.callers.slice(0, 3)).toEqual([
      { name: 'processTimers node:internal/timers:1', ms: 8 },
      { name: 'write store/memory-store.ts:1', ms: 8 },
      { name: 'serializeState store/memory-state.ts:1', ms: 8 },
    ]);
    expect(report.busyMs).toBe(15);
    expect(report.stalledMs).toBe(12);
    expect(report.garbageCollectorMs).toBe(4);
  });

  it('counts a sample that stood for longer than gapMs as a gap, and keeps to the window given', () => {
    // Busy from 3 ms: 1 ms, then one sample standing for 9 ms (the thread off the CPU), then 1 ms.
    const profile = profileOf([
      ...ms(2, 2),
      [5, 1000],
      [5, 1000],
      [5, 9000],
      [2, 1000],
      ...ms(20, 5),
    ]);
    const report = findStallWindows(profile, { thresholdMs: 5, toUs: 14_000 });
    expect(report.stalls).toEqual([expect.objectContaining({ atMs: 3, ms: 11, gapMs: 9 })]);
    expect(report.coveredMs).toBe(14);
    // The 20 busy samples from 15 ms on, cut off where the window ends.
    const window = { thresholdMs: 5, fromUs: 15_000, toUs: 30_000 };
    expect(findStallWindows(profile, window).stalls).toEqual([
      expect.objectContaining({ atMs: 15, ms: 15, gapMs: 0 }),
    ]);
  });
});

describe('busyMsBetween', () => {
  it('adds up the time off (idle) that falls between two times', () => {
    const profile = profileOf([...ms(4, 2), ...ms(6, 5), ...ms(4, 2)]);
    // Samples at 1..14 ms; busy ones at 5..10 stand for 5 ms to 11 ms.
    expect(busyMsBetween(profile, 0, 20_000)).toBe(6);
    expect(busyMsBetween(profile, 7_500, 9_000)).toBe(1.5);
  });
});
