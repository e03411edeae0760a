import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLiteLlmPriceFile, parseLiteLlmPrices } from './load-litellm-prices.js';
import { loadShippedPriceTable, parsePriceTable } from './load-price-table.js';

const liteLlm = {
  sample_spec: { input_cost_per_token: 0, output_cost_per_token: 0, litellm_provider: 'one of' },
  'claude-x-5': {
    litellm_provider: 'anthropic',
    mode: 'chat',
    input_cost_per_token: 3e-6,
    output_cost_per_token: 1.5e-5,
  },
  'claude-3-haiku-20240307': {
    litellm_provider: 'anthropic',
    mode: 'chat',
    input_cost_per_token: 2.5e-7,
    output_cost_per_token: 1.25e-6,
    cache_read_input_token_cost: 3e-8,
    cache_creation_input_token_cost: 3e-7,
    cache_creation_input_token_cost_above_1hr: 6e-6,
  },
  'gemini/gemini-2.0-flash-lite': {
    litellm_provider: 'gemini',
    mode: 'chat',
    input_cost_per_token: 7.5e-8,
    output_cost_per_token: 3e-7,
    cache_read_input_token_cost: 1.875e-8,
  },
  'bedrock/us.anthropic.claude-x-5': {
    litellm_provider: 'bedrock',
    mode: 'chat',
    input_cost_per_token: 1e-6,
    output_cost_per_token: 5e-6,
  },
  'text-embedding-3-small': {
    litellm_provider: 'openai',
    mode: 'embedding',
    input_cost_per_token: 2e-8,
    output_cost_per_token: 0,
  },
  'gpt-no-output': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 1e-6 },
};

describe('parseLiteLlmPrices', () => {
  const { table, warnings } = parseLiteLlmPrices(liteLlm, { version: 'v1' });

  it('converts USD per token to pico-USD per token exactly', () => {
    expect(table.entries.get('gemini/gemini-2.0-flash-lite')).toEqual({
      provider: 'gemini',
      price: {
        unit: 'pico',
        input: 75_000,
        output: 300_000,
        cacheRead: 18_750,
        cacheWrite5m: 75_000,
        cacheWrite1h: 75_000,
      },
      fallbackFields: ['cacheWrite5m', 'cacheWrite1h'],
    });
  });

  it('fills missing Anthropic cache prices with 0.1 / 1.25 / 2 and records it', () => {
    expect(table.entries.get('claude-x-5')).toEqual({
      provider: 'anthropic',
      price: {
        unit: 'pico',
        input: 3_000_000,
        output: 15_000_000,
        cacheRead: 300_000,
        cacheWrite5m: 3_750_000,
        cacheWrite1h: 6_000_000,
      },
      fallbackFields: ['cacheRead', 'cacheWrite5m', 'cacheWrite1h'],
    });
  });

  it('uses the Anthropic multipliers for Claude on other providers', () => {
    expect(table.entries.get('bedrock/us.anthropic.claude-x-5')?.price).toEqual({
      unit: 'pico',
      input: 1_000_000,
      output: 5_000_000,
      cacheRead: 100_000,
      cacheWrite5m: 1_250_000,
      cacheWrite1h: 2_000_000,
    });
  });

  it('skips non-text modes and the sample spec, and reports incomplete or suspicious entries', () => {
    expect([...table.entries.keys()].sort()).toEqual([
      'bedrock/us.anthropic.claude-x-5',
      'claude-3-haiku-20240307',
      'claude-x-5',
      'gemini/gemini-2.0-flash-lite',
    ]);
    expect(warnings).toEqual([
      'claude-3-haiku-20240307: cacheWrite1h differs from the provider multiplier',
      'gpt-no-output: no input or output price; skipped',
    ]);
  });

  it('loads a file and versions it by content', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tollgate-prices-'));
    try {
      const path = join(folder, 'prices.json');
      await writeFile(path, JSON.stringify(liteLlm));
      const loaded = await loadLiteLlmPriceFile(path);
      expect(loaded.table.version).toMatch(/^litellm-[0-9a-f]{12}$/);
      expect(loaded.table.entries.size).toBe(4);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the shipped price table', () => {
  const table = loadShippedPriceTable();

  it('has a version and covers all four platforms', () => {
    expect(table.version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
    const providers = new Set([...table.entries.values()].map((entry) => entry.provider));
    expect([...providers].sort()).toEqual(['anthropic', 'antigravity', 'gemini', 'openai']);
    for (const model of [
      'claude-opus-4-5',
      'claude-haiku-4-5',
      'gpt-5',
      'gpt-4o',
      'o3',
      'gemini-2.5-pro',
      'gemini-3-pro-preview',
    ]) {
      expect(table.entries.has(model)).toBe(true);
    }
  });

  it('prices Claude 4 cache at the provider multipliers', () => {
    for (const [model, entry] of table.entries) {
      if (
        entry.provider !== 'anthropic' ||
        !model.startsWith('claude-') ||
        model.startsWith('claude-3')
      ) {
        continue;
      }
      const { input, cacheRead, cacheWrite5m, cacheWrite1h } = entry.price;
      expect({ model, cacheRead, cacheWrite5m, cacheWrite1h }).toEqual({
        model,
        cacheRead: input / 10,
        cacheWrite5m: input * 1.25,
        cacheWrite1h: input * 2,
      });
    }
  });

  it('refuses a malformed table', () => {
    expect(() =>
      parsePriceTable({
        version: 'x',
        models: { m: { provider: 'openai', input: '1.5e3', output: '1' } },
      }),
    ).toThrow();
  });
});
