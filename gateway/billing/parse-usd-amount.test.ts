import { describe, expect, it } from 'vitest';
import { formatNanoAsUsd, parseUsdToNano, scaleDecimal } from './parse-usd-amount.js';

describe('parseUsdToNano', () => {
  it.each([
    ['3.75', 3_750_000_000],
    ['0', 0],
    ['0.000000001', 1],
    ['999999.999999', 999_999_999_999_000],
    ['12', 12_000_000_000],
  ])('%s -> %d', (text, nano) => {
    expect(parseUsdToNano(text)).toBe(nano);
  });

  it('accepts integers as numbers', () => {
    expect(parseUsdToNano(5)).toBe(5_000_000_000);
  });

  it.each(['', '-1', '1e3', '1.0000000001', '01', '1.', 'abc'])('refuses %j', (text) => {
    expect(() => parseUsdToNano(text)).toThrow(RangeError);
  });
});

describe('formatNanoAsUsd', () => {
  it.each([
    [3_750_000_000, '3.75'],
    [1, '0.000000001'],
    [0, '0'],
    [5_000_000_000, '5'],
    [-1_500_000_000, '-1.5'],
  ])('%d -> %s', (nano, text) => {
    expect(formatNanoAsUsd(nano)).toBe(text);
  });

  it('round-trips', () => {
    for (const text of ['0.1', '42.000001', '7.123456789']) {
      expect(formatNanoAsUsd(parseUsdToNano(text))).toBe(text);
    }
  });
});

describe('scaleDecimal', () => {
  it('scales decimals and exponent notation exactly', () => {
    expect(scaleDecimal('3.75e-06', 12)).toEqual({ value: 3_750_000n, exact: true });
    expect(scaleDecimal(1.875e-8, 12)).toEqual({ value: 18_750n, exact: true });
    expect(scaleDecimal('0.3', 6)).toEqual({ value: 300_000n, exact: true });
    expect(scaleDecimal('2E+2', 0)).toEqual({ value: 200n, exact: true });
  });

  it('rounds half up beyond the scale and says so', () => {
    expect(scaleDecimal('1e-13', 12)).toEqual({ value: 0n, exact: false });
    expect(scaleDecimal('5e-13', 12)).toEqual({ value: 1n, exact: false });
    expect(scaleDecimal('not a number', 12)).toBeNull();
  });
});
