import { describe, expect, it } from 'vitest';
import { divideRounded, formatNanoAsUSD, parseMoneyToNano } from './parse-money.js';
import { parseMultiplier } from './parse-multiplier.js';

describe('parseMoneyToNano', () => {
  it.each([
    [0, 0],
    ['0', 0],
    [12, 12_000_000_000],
    ['0.1', 100_000_000],
    ['0.000001', 1_000],
    ['999999.999999', 999_999_999_999_000],
    ['3.14', 3_140_000_000],
  ])('%s -> %d nano-USD', (input, nano) => {
    expect(parseMoneyToNano(input)).toBe(nano);
  });

  it('is exact where floating point is not (0.1 + 0.2)', () => {
    expect(parseMoneyToNano('0.1') + parseMoneyToNano('0.2')).toBe(parseMoneyToNano('0.3'));
  });

  it.each(['', '01', '1.', '.5', '-1', '1e3', '1.0000000001', 'abc'])('refuses %j', (input) => {
    expect(() => parseMoneyToNano(input)).toThrow();
  });
});

describe('formatNanoAsUSD', () => {
  it.each([
    [0, '0'],
    [1_500_000_000, '1.5'],
    [1, '0.000000001'],
    [-250_000_000, '-0.25'],
    [12_000_000_000, '12'],
  ])('%d -> %s', (nano, text) => {
    expect(formatNanoAsUSD(nano)).toBe(text);
  });

  it('round-trips every money string', () => {
    for (const text of ['0.5', '42', '999999.999999', '0.000001']) {
      expect(formatNanoAsUSD(parseMoneyToNano(text))).toBe(text);
    }
  });
});

describe('divideRounded', () => {
  it('rounds half up', () => {
    expect(divideRounded(5, 10)).toBe(1);
    expect(divideRounded(4, 10)).toBe(0);
    expect(divideRounded(15, 10)).toBe(2);
  });
});

describe('parseMultiplier', () => {
  it.each([
    ['1', 1, 1],
    [2, 2, 1],
    ['1.5', 3, 2],
    ['0.25', 1, 4],
    ['0.000001', 1, 1_000_000],
    ['9999.999999', 9_999_999_999, 1_000_000],
  ])('%s -> %d/%d', (input, numerator, denominator) => {
    expect(parseMultiplier(input)).toEqual({ numerator, denominator });
  });

  it('refuses zero and malformed values', () => {
    expect(() => parseMultiplier('0')).toThrow(/greater than 0/);
    expect(() => parseMultiplier('1,5')).toThrow();
  });
});
