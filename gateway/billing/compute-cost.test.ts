/** Costs computed by hand from the shipped list prices (USD per MTok x 1000 = nano-USD per token). */
import { describe, expect, it } from 'vitest';
import type { UsageBuckets } from '../../store/usage-buckets.js';
import { computeCost, toNanoPrice, type PicoModelPrice } from './compute-cost.js';
import { loadShippedPriceTable } from './load-price-table.js';
import { lookupModelPrice } from './lookup-model-price.js';
import type { Platform } from '../../crds/schema/resources.js';

const one = { numerator: 1, denominator: 1 };

function usage(partial: Partial<UsageBuckets>): UsageBuckets {
  return {
    inputUncached: 0,
    cacheRead: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output: 0,
    reasoning: 0,
    ...partial,
  };
}

function tablePrice(model: string, platform: Platform): PicoModelPrice {
  const resolved = lookupModelPrice({ model, platform, table: loadShippedPriceTable() });
  if (resolved === null) throw new Error(`no price for ${model}`);
  return resolved.price;
}

describe('computeCost per platform', () => {
  it('Anthropic claude-sonnet-4-5: input, cache read, both cache writes, output', () => {
    // 1000 x $3 + 20000 x $0.30 + 4000 x $3.75 + 2000 x $6 + 500 x $15, per MTok:
    // 3,000,000 + 6,000,000 + 15,000,000 + 12,000,000 + 7,500,000 nano-USD.
    const price = tablePrice('claude-sonnet-4-5-20250929', 'Anthropic');
    const buckets = usage({
      inputUncached: 1000,
      cacheRead: 20000,
      cacheWrite5m: 4000,
      cacheWrite1h: 2000,
      output: 500,
      reasoning: 400,
    });
    expect(computeCost(buckets, price, one)).toBe(43_500_000);
    expect(computeCost(buckets, price, { numerator: 3, denominator: 2 })).toBe(65_250_000);
  });

  it('Anthropic claude-haiku-4-5: 5m at 1.25x and 1h at 2x input', () => {
    // 10 x 1000 + 100 x 100 + 1000 x 1250 + 1000 x 2000 + 10 x 5000
    const price = tablePrice('claude-haiku-4-5', 'Anthropic');
    const buckets = usage({
      inputUncached: 10,
      cacheRead: 100,
      cacheWrite5m: 1000,
      cacheWrite1h: 1000,
      output: 10,
    });
    expect(computeCost(buckets, price, one)).toBe(3_320_000);
  });

  it('OpenAI gpt-5: cached input at 10 %, reasoning inside output', () => {
    // 129 x 1250 + 11904 x 125 + 44 x 10000
    const price = tablePrice('gpt-5', 'OpenAI');
    const buckets = usage({ inputUncached: 129, cacheRead: 11904, output: 44, reasoning: 10 });
    expect(computeCost(buckets, price, one)).toBe(2_089_250);
  });

  it('OpenAI gpt-4.1-nano: a tiny request', () => {
    // 3 x 100 + 1 x 25 + 1 x 400
    expect(
      computeCost(
        usage({ inputUncached: 3, cacheRead: 1, output: 1 }),
        tablePrice('gpt-4.1-nano', 'OpenAI'),
        one,
      ),
    ).toBe(725);
  });

  it('Gemini gemini-2.5-pro: cached content at 10 %, thoughts billed as output', () => {
    // 100 x 1250 + 20 x 125 + 48 x 10000
    const buckets = usage({ inputUncached: 100, cacheRead: 20, output: 48, reasoning: 40 });
    expect(computeCost(buckets, tablePrice('models/gemini-2.5-pro', 'Gemini'), one)).toBe(607_500);
  });

  it('Antigravity: Claude and Gemini ids', () => {
    // claude-sonnet-4-6: 400 x 3000 + 100 x 300 + 100 x 15000
    const claude = usage({ inputUncached: 400, cacheRead: 100, output: 100, reasoning: 70 });
    expect(computeCost(claude, tablePrice('claude-sonnet-4-6', 'Antigravity'), one)).toBe(
      2_730_000,
    );
    // gemini-3-pro-high: 1000 x 2000 + 100 x 12000
    const gemini = usage({ inputUncached: 1000, output: 100 });
    expect(computeCost(gemini, tablePrice('gemini-3-pro-high', 'Antigravity'), one)).toBe(
      3_200_000,
    );
  });
});

describe('computeCost rounding', () => {
  const subNano: PicoModelPrice = {
    unit: 'pico',
    input: 18_750,
    output: 0,
    cacheRead: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
  };

  it('keeps sub-nano prices exact and rounds once, half up', () => {
    expect(computeCost(usage({ inputUncached: 1 }), subNano, one)).toBe(19); // 18.75
    expect(computeCost(usage({ inputUncached: 2 }), subNano, one)).toBe(38); // 37.5
    expect(computeCost(usage({ inputUncached: 3 }), subNano, one)).toBe(56); // 56.25
    // Rounded once: 3 x 18.75 = 56.25, not 3 x 19 = 57.
  });

  it('applies the multiplier before rounding', () => {
    const nano = { input: 1, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 };
    expect(
      computeCost(usage({ inputUncached: 1000 }), nano, { numerator: 1, denominator: 3 }),
    ).toBe(333);
    expect(computeCost(usage({ inputUncached: 3 }), nano, { numerator: 1, denominator: 2 })).toBe(
      2,
    );
    expect(computeCost(usage({ inputUncached: 3 }), nano, { numerator: 0, denominator: 1 })).toBe(
      0,
    );
  });

  it('refuses invalid input', () => {
    const nano = { input: 1, output: 1, cacheRead: 1, cacheWrite5m: 1, cacheWrite1h: 1 };
    expect(() => computeCost(usage({}), nano, { numerator: 1, denominator: 0 })).toThrow(
      RangeError,
    );
    expect(() => computeCost(usage({ output: -1 }), nano, one)).toThrow(RangeError);
    expect(() => computeCost(usage({ output: 1.5 }), nano, one)).toThrow(RangeError);
  });

  it('converts pico prices to the nano contract type', () => {
    expect(toNanoPrice(subNano)).toEqual({
      input: 19,
      output: 0,
      cacheRead: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
    });
  });
});
