import { describe, expect, it } from 'vitest';
import { describeUsd, formatUsd, usdTextOfNano } from './format-usd.js';

describe('formatUsd', () => {
  it.each([
    // From $1: cents, thousands separated.
    ['5', '$5.00'],
    ['12.5', '$12.50'],
    ['1234.567', '$1,234.57'],
    ['1000000', '$1,000,000.00'],
    ['1', '$1.00'],
    // Below $1: four significant digits.
    ['0.086793', '$0.08679'],
    ['0.000213', '$0.000213'],
    ['0.00012345', '$0.0001235'],
    ['0.123456789', '$0.1235'],
    ['0.99996', '$1.00'],
    ['0.0099996', '$0.01000'],
    ['0.10002', '$0.1000'],
    // Zeros dropped only where the shorter figure is exact.
    ['0.0005500', '$0.00055'],
    ['0.5', '$0.50'],
    ['0.1', '$0.10'],
    ['0.000000001', '$0.000000001'],
    // Zero, negative, other spellings.
    ['0', '$0.00'],
    ['0.000', '$0.00'],
    ['-0.086793', '-$0.08679'],
    ['-2.5', '-$2.50'],
    ['1e-7', '$0.0000001'],
    ['.25', '$0.25'],
  ])('%s reads %s', (value, shown) => {
    expect(formatUsd(value)).toBe(shown);
  });

  it('keeps a dash for no amount and text that is not a number as it is', () => {
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd('unknown')).toBe('unknown');
    expect(formatUsd('')).toBe('');
  });

  it('gives the exact amount and whether the figure shown rounds it', () => {
    expect(describeUsd('0.086793')).toEqual({
      shown: '$0.08679',
      exact: '$0.086793',
      rounded: true,
    });
    expect(describeUsd('2.5')).toEqual({ shown: '$2.50', exact: '$2.50', rounded: false });
    expect(describeUsd('0.00055')).toEqual({
      shown: '$0.00055',
      exact: '$0.00055',
      rounded: false,
    });
    expect(describeUsd('1234.567')?.rounded).toBe(true);
  });

  it('shows figures that add up to the total shown, where cents would not', () => {
    const records = ['0.086793', '0.086793', '0.086793'];
    const total = '0.260379';
    const sum = records.reduce((left, value) => left + Number(formatUsd(value).slice(1)), 0);
    expect(sum.toFixed(4)).toBe(formatUsd(total).slice(1));
  });
});

describe('usdTextOfNano', () => {
  it.each([
    [86_793_000, '0.086793'],
    [0, '0'],
    [1, '0.000000001'],
    [2_500_000_000, '2.5'],
    [12_000_000_000, '12'],
    [-5_000, '-0.000005'],
  ])('%d nano-dollars are %s', (nano, text) => {
    expect(usdTextOfNano(nano)).toBe(text);
  });
});
