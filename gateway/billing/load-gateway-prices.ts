/**
 * The gateway's price table, loaded once at start: the shipped table, with an operator's LiteLLM
 * JSON file (`TOLLGATE_PRICE_FILE`) laid over it when one is configured. A bad file fails the boot.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseLiteLlmPrices } from './load-litellm-prices.js';
import { loadShippedPriceTable, mergePriceTables, type PriceTable } from './load-price-table.js';

export interface GatewayPrices {
  table: PriceTable;
  /** Entries of the price file that were skipped or look wrong. */
  warnings: string[];
}

export function loadGatewayPrices(priceFile: string | undefined): GatewayPrices {
  const shipped = loadShippedPriceTable();
  if (priceFile === undefined) return { table: shipped, warnings: [] };
  const text = readFileSync(priceFile, 'utf8');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const loaded = parseLiteLlmPrices(JSON.parse(text) as unknown, { version: `litellm-${digest}` });
  return { table: mergePriceTables(shipped, loaded.table), warnings: loaded.warnings };
}
