import { describe, expect, it } from 'vitest';
import { formatUsdTick, niceStep, niceTicks, valueAxis } from './nice-ticks.js';

describe('niceStep', () => {
  it.each([
    [1, 4, 0.5],
    [0.26, 4, 0.1],
    [0.0011, 4, 0.0005],
    [0.00055, 4, 0.0002],
    [7, 4, 2],
    [1000, 4, 500],
    [0.4, 4, 0.1],
    [3, 3, 1],
  ])('%d over %d intervals: %d', (span, count, step) => {
    expect(niceStep(span, count)).toBeCloseTo(step, 12);
  });
});

describe('niceTicks', () => {
  it.each([
    [0.26, { ticks: [0, 0.1, 0.2, 0.3], decimals: 1 }],
    [0.0011, { ticks: [0, 0.0005, 0.001, 0.0015], decimals: 4 }],
    [0.00055, { ticks: [0, 0.0002, 0.0004, 0.0006], decimals: 4 }],
    [0.4, { ticks: [0, 0.1, 0.2, 0.3, 0.4], decimals: 1 }],
    [1234, { ticks: [0, 500, 1000, 1500], decimals: 0 }],
    [0, { ticks: [0, 1], decimals: 0 }],
    [Number.NaN, { ticks: [0, 1], decimals: 0 }],
  ])('up to %d: %j', (max, expected) => {
    expect(niceTicks(max)).toEqual(expected);
  });

  it('keeps whole steps for counts', () => {
    expect(niceTicks(3, { whole: true })).toEqual({ ticks: [0, 1, 2, 3], decimals: 0 });
    expect(niceTicks(2, { whole: true })).toEqual({ ticks: [0, 1, 2], decimals: 0 });
  });

  it('steps by 1, 2 or 5 times a power of ten', () => {
    for (const max of [0.00013, 0.0071, 0.093, 0.77, 4.2, 58, 610, 9_999, 123_456]) {
      const { ticks } = niceTicks(max);
      const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
      expect([1, 2, 5]).toContainEqual(Number(mantissa.toFixed(6)));
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(5);
    }
  });
});

describe('formatUsdTick', () => {
  it('writes every tick of an axis with the same decimals, at least the cents', () => {
    const { ticks, decimals } = niceTicks(0.00055);
    expect(ticks.map((tick) => formatUsdTick(tick, decimals))).toEqual([
      '$0.0000',
      '$0.0002',
      '$0.0004',
      '$0.0006',
    ]);
    const coarse = niceTicks(0.26);
    expect(coarse.ticks.map((tick) => formatUsdTick(tick, coarse.decimals))).toEqual([
      '$0.00',
      '$0.10',
      '$0.20',
      '$0.30',
    ]);
    expect(formatUsdTick(1500, 0)).toBe('$1,500.00');
  });
});

describe('valueAxis', () => {
  it('labels money and counts on their own steps', () => {
    const money = valueAxis([0.00021, 0.00055, 0], 'usd');
    expect(money.domain).toEqual([0, 0.0006]);
    expect(money.ticks.map(money.label)).toEqual(['$0.0000', '$0.0002', '$0.0004', '$0.0006']);
    const counts = valueAxis([3, 120_000], 'count');
    expect(counts.ticks).toEqual([0, 50_000, 100_000, 150_000]);
    expect(counts.ticks.map(counts.label)).toEqual(['0', '50,000', '100K', '150K']);
    expect(valueAxis([], 'count').ticks).toEqual([0, 1]);
  });
});
