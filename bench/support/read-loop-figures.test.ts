import { describe, expect, it } from 'vitest';
import { loopDelayMs, loopFiguresBetween, readGc } from './read-loop-figures.js';

const page = (minor: number, minorSum: number, major: number, le10: number): string =>
  [
    '# HELP tollgate_nodejs_eventloop_lag_p99_seconds x',
    'tollgate_nodejs_eventloop_lag_p50_seconds 0.0101',
    'tollgate_nodejs_eventloop_lag_p99_seconds 0.0125',
    'tollgate_nodejs_eventloop_lag_max_seconds 0.04',
    `tollgate_nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} 0`,
    `tollgate_nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} ${le10}`,
    `tollgate_nodejs_gc_duration_seconds_sum{kind="minor"} ${minorSum}`,
    `tollgate_nodejs_gc_duration_seconds_count{kind="minor"} ${minor}`,
    `tollgate_nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} 0`,
    `tollgate_nodejs_gc_duration_seconds_sum{kind="major"} 0.05`,
    `tollgate_nodejs_gc_duration_seconds_count{kind="major"} ${major}`,
  ].join('\n');

describe('read-loop-figures', () => {
  it('reads the GC histogram by kind and the pauses above 10 ms', () => {
    const gc = readGc(page(10, 0.02, 1, 9));
    expect(gc.count).toEqual({ minor: 10, major: 1 });
    expect(gc.over10ms).toBe(2);
  });

  it('takes the timer interval off the loop delay, never below zero, null when absent', () => {
    const text = [
      'tollgate_nodejs_eventloop_lag_p50_seconds 0.0102',
      'tollgate_nodejs_eventloop_lag_min_seconds 0.0092',
      'tollgate_recorder_nodejs_eventloop_lag_p99_seconds 0.0254',
    ].join('\n');
    expect(loopDelayMs(text, 'p50')).toBe(0.2);
    expect(loopDelayMs(text, 'min')).toBe(0);
    expect(loopDelayMs(text, 'p99', 'tollgate_recorder_')).toBe(15.4);
    expect(loopDelayMs(text, 'max')).toBeNull();
  });

  it('gives the window: loop delay of the end scrape, GC as the difference', () => {
    const figures = loopFiguresBetween(page(10, 0.02, 1, 9), page(30, 0.05, 2, 28));
    expect(figures).toEqual({
      delayP50Ms: 0.1,
      delayP99Ms: 2.5,
      delayMaxMs: 30,
      gcPauses: 21,
      gcMs: 30,
      gcOver10ms: 2,
      gcMsByKind: { minor: 30, major: 0 },
    });
  });
});
