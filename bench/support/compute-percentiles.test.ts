import { describe, expect, it } from 'vitest';
import { percentile, sortAscending, summarizeLatencies } from './compute-percentiles.js';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it('uses the nearest rank', () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 0.999)).toBe(100);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('returns the only value of a single sample and NaN for none', () => {
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('summarizeLatencies', () => {
  it('sorts numerically, not as text', () => {
    expect(sortAscending([10, 9, 100, 1])).toEqual([1, 9, 10, 100]);
  });

  it('summarises unsorted samples', () => {
    const values = Array.from({ length: 1000 }, (_, index) => 1000 - index);
    const summary = summarizeLatencies(values);
    expect(summary).toEqual({ count: 1000, mean: 500.5, p50: 500, p99: 990, p999: 999, max: 1000 });
  });

  it('reports an empty run as NaN, not zero', () => {
    const summary = summarizeLatencies([]);
    expect(summary.count).toBe(0);
    expect(summary.p99).toBeNaN();
    expect(summary.max).toBeNaN();
  });
});
