import { describe, expect, it } from 'vitest';
import {
  estimateRequestCost,
  MAX_RESERVED_OUTPUT_TOKENS,
  outputAllowance,
  reservedOutputTokens,
  UNCAPPED_OUTPUT_TOKENS,
} from './estimate-request-cost.js';

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
  it('reserves input at bytes / 4 plus the reserved output', () => {
    // 1000 x 3000 + 500 x 15000
    expect(
      estimateRequestCost({ bodyBytes: 4000, outputTokens: 500, price, multiplier: one }),
    ).toBe(10_500_000);
  });

  it('reserves every output token the upstream is allowed, beyond the old 1024-token cap', () => {
    // 1000 x 3000 + 64,000 x 15000
    expect(
      estimateRequestCost({ bodyBytes: 4000, outputTokens: 64_000, price, multiplier: one }),
    ).toBe(963_000_000);
  });

  it('rounds bytes up and applies the multiplier', () => {
    // 1 token x 3000 + 0 output, x 2
    expect(
      estimateRequestCost({
        bodyBytes: 1,
        outputTokens: 0,
        price,
        multiplier: { numerator: 2, denominator: 1 },
      }),
    ).toBe(6000);
  });

  it('never throws on an absurd output figure', () => {
    const ceiling = 1000 * 3000 + MAX_RESERVED_OUTPUT_TOKENS * 15000;
    for (const outputTokens of [1e300, Infinity, Number.NaN]) {
      expect(estimateRequestCost({ bodyBytes: 4000, outputTokens, price, multiplier: one })).toBe(
        ceiling,
      );
    }
  });
});

describe('reservedOutputTokens', () => {
  it('reserves the cap the upstream is asked for', () => {
    expect(reservedOutputTokens(4000, 'OpenAI')).toBe(4000);
    expect(reservedOutputTokens(0, 'Anthropic')).toBe(0);
  });

  it("assumes the platform's largest model output when the request sets no cap", () => {
    expect(reservedOutputTokens(null, 'Anthropic')).toBe(128_000);
    expect(reservedOutputTokens(null, 'OpenAI')).toBe(128_000);
    expect(reservedOutputTokens(null, 'Gemini')).toBe(65_536);
    expect(reservedOutputTokens(null, 'Antigravity')).toBe(UNCAPPED_OUTPUT_TOKENS.Antigravity);
  });

  it('keeps absurd caps at the ceiling', () => {
    expect(reservedOutputTokens(1e300, 'OpenAI')).toBe(MAX_RESERVED_OUTPUT_TOKENS);
    expect(reservedOutputTokens(-1, 'Gemini')).toBe(65_536);
  });
});

describe('outputAllowance', () => {
  it('adds up the caps of several answers', () => {
    expect(outputAllowance({ cap: 4000, answers: 3, platform: 'Gemini' })).toBe(12_000);
    expect(outputAllowance({ cap: null, answers: 2, platform: 'OpenAI' })).toBe(256_000);
    expect(outputAllowance({ cap: null, answers: 1, platform: 'OpenAI' })).toBeNull();
    expect(outputAllowance({ cap: 500_000, answers: 8, platform: 'Gemini' })).toBe(
      MAX_RESERVED_OUTPUT_TOKENS,
    );
  });
});
