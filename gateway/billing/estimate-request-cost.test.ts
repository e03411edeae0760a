import { describe, expect, it } from 'vitest';
import { estimateRequestCost } from './estimate-request-cost.js';

// claude-sonnet-4-5 list price in nano-USD per token.
const price = {
  input: 3000,
  output: 15000,
  cacheRead: 300,
  cacheWrite5m: 3750,
  cacheWrite1h: 6000,
};
const one = { numerator: 1, denominator: 1 };

describe('estimateRequestCost', () => {
  it('reserves input at bytes / 4 plus the requested output', () => {
    // 1000 x 3000 + 500 x 15000
    expect(
      estimateRequestCost({ bodyBytes: 4000, maxOutputTokens: 500, price, multiplier: one }),
    ).toBe(10_500_000);
  });

  it('caps the output at 1024 tokens and uses 1024 when none was asked', () => {
    // 1000 x 3000 + 1024 x 15000
    expect(estimateRequestCost({ bodyBytes: 4000, price, multiplier: one })).toBe(18_360_000);
    expect(
      estimateRequestCost({ bodyBytes: 4000, maxOutputTokens: 64_000, price, multiplier: one }),
    ).toBe(18_360_000);
  });

  it('rounds bytes up and applies the multiplier', () => {
    // 1 token x 3000 + 0 output, x 2
    expect(
      estimateRequestCost({
        bodyBytes: 1,
        maxOutputTokens: 0,
        price,
        multiplier: { numerator: 2, denominator: 1 },
      }),
    ).toBe(6000);
  });
});
