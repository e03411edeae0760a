import { describe, expect, it } from 'vitest';
import { loadShippedPriceTable, mergePriceTables } from './load-price-table.js';
import { parseLiteLlmPrices } from './load-litellm-prices.js';
import { lookupModelPrice, stripDateSuffix } from './lookup-model-price.js';

const table = loadShippedPriceTable();
const override = { input: 1, output: 2, cacheRead: 0, cacheWrite5m: 1, cacheWrite1h: 1 };

describe('lookupModelPrice', () => {
  it('prefers the group override', () => {
    const resolved = lookupModelPrice({
      model: 'claude-sonnet-4-5',
      platform: 'Anthropic',
      table,
      overrides: { 'claude-sonnet-4-5': override },
    });
    expect(resolved).toMatchObject({ source: 'override', key: 'claude-sonnet-4-5' });
    expect(resolved?.price.input).toBe(1000);
  });

  it('finds exact, provider-prefixed and date-stripped ids', () => {
    expect(lookupModelPrice({ model: 'gpt-4.1', platform: 'OpenAI', table })).toMatchObject({
      source: 'exact',
      key: 'gpt-4.1',
    });
    expect(
      lookupModelPrice({ model: 'gemini-3-pro-high', platform: 'Antigravity', table }),
    ).toMatchObject({
      source: 'provider-prefixed',
      key: 'antigravity/gemini-3-pro-high',
    });
    expect(
      lookupModelPrice({ model: 'claude-sonnet-4-5-20250929', platform: 'Anthropic', table }),
    ).toMatchObject({
      source: 'date-stripped',
      key: 'claude-sonnet-4-5',
    });
    expect(lookupModelPrice({ model: 'gpt-4.1-2025-04-14', platform: 'OpenAI', table })?.key).toBe(
      'gpt-4.1',
    );
    expect(
      lookupModelPrice({ model: 'models/gemini-2.5-flash', platform: 'Gemini', table })?.key,
    ).toBe('gemini-2.5-flash');
  });

  it('falls back to the group fallback, else finds nothing', () => {
    expect(
      lookupModelPrice({ model: 'my-model', platform: 'OpenAI', table, fallback: override }),
    ).toMatchObject({
      source: 'fallback',
      key: '*',
    });
    expect(
      lookupModelPrice({ model: 'my-model', platform: 'OpenAI', table, fallback: null }),
    ).toBeNull();
  });

  it('finds provider-prefixed LiteLLM keys after a merge', () => {
    const liteLlm = parseLiteLlmPrices(
      {
        'gemini/gemini-9-ultra': {
          litellm_provider: 'gemini',
          mode: 'chat',
          input_cost_per_token: 1e-6,
          output_cost_per_token: 2e-6,
        },
      },
      { version: 'litellm-test' },
    );
    const merged = mergePriceTables(table, liteLlm.table);
    expect(merged.version).toBe(`${table.version}+litellm-test`);
    expect(
      lookupModelPrice({ model: 'gemini-9-ultra-20270101', platform: 'Gemini', table: merged }),
    ).toMatchObject({
      source: 'date-stripped',
      key: 'gemini/gemini-9-ultra',
      fallbackFields: ['cacheRead', 'cacheWrite5m', 'cacheWrite1h'],
    });
  });
});

describe('stripDateSuffix', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['claude-opus-4-1@20250805', 'claude-opus-4-1'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
  ])('%s -> %s', (model, stripped) => {
    expect(stripDateSuffix(model)).toBe(stripped);
  });
});
