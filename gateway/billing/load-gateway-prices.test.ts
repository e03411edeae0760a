import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGatewayPrices } from './load-gateway-prices.js';
import { loadShippedPriceTable } from './load-price-table.js';

const folder = mkdtempSync(join(tmpdir(), 'tollgate-prices-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('loadGatewayPrices', () => {
  it('is the shipped table without a price file', () => {
    expect(loadGatewayPrices(undefined).table).toBe(loadShippedPriceTable());
  });

  it('lays a LiteLLM file over the shipped table and names both versions', () => {
    const file = join(folder, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        'house-model-1': {
          litellm_provider: 'openai',
          mode: 'chat',
          input_cost_per_token: 1e-6,
          output_cost_per_token: 4e-6,
        },
        'image-model': { mode: 'image_generation', input_cost_per_token: 1e-6 },
      }),
    );
    const { table } = loadGatewayPrices(file);
    expect(table.version).toMatch(
      new RegExp(`^${loadShippedPriceTable().version}\\+litellm-[0-9a-f]{12}$`),
    );
    expect(table.entries.get('house-model-1')?.price).toMatchObject({
      input: 1_000_000,
      output: 4_000_000,
    });
    expect(table.entries.has('image-model')).toBe(false);
    expect(table.entries.has('claude-sonnet-4-5')).toBe(true);
  });

  it('fails the boot on a missing or broken file', () => {
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{not json');
    expect(() => loadGatewayPrices(broken)).toThrow();
    expect(() => loadGatewayPrices(join(folder, 'absent.json'))).toThrow();
  });
});
