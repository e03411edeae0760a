/**
 * The price table shipped in the project (`price-table.json`, USD per MTok as decimal strings, with a
 * `version`), parsed once at the edge with zod into pico-USD-per-token entries. `mergePriceTables`
 * lays an operator-supplied table over the shipped one.
 */
import { z } from 'zod';
import shippedTable from './price-table.json' with { type: 'json' };
import { completeModelPrice } from './complete-model-price.js';
import type { PicoModelPrice } from './compute-cost.js';
import { scaleDecimal } from './parse-usd-amount.js';

export interface PriceEntry {
  /** Where the price applies: `anthropic`, `openai`, `gemini`, `antigravity`, or a LiteLLM provider. */
  provider: string;
  price: PicoModelPrice;
  /** Cache fields the source left out and that were filled by the provider fallback. */
  fallbackFields: string[];
}

export interface PriceTable {
  version: string;
  entries: ReadonlyMap<string, PriceEntry>;
}

const perMTok = z.string().regex(/^(0|[1-9][0-9]{0,5})(\.[0-9]{1,6})?$/);

const priceTableSchema = z.object({
  version: z.string().min(1),
  models: z.record(
    z.string().min(1),
    z.object({
      provider: z.string().min(1),
      input: perMTok,
      output: perMTok,
      cacheRead: perMTok.optional(),
      cacheWrite5m: perMTok.optional(),
      cacheWrite1h: perMTok.optional(),
      note: z.string().optional(),
    }),
  ),
});

/** USD per MTok -> pico-USD per token (x 1e6); exact for at most 6 decimals. */
function picoPerToken(perMillion: string | undefined): bigint | undefined {
  if (perMillion === undefined) return undefined;
  const scaled = scaleDecimal(perMillion, 6);
  if (scaled === null) throw new RangeError(`not a price: '${perMillion}'`);
  return scaled.value;
}

export function parsePriceTable(json: unknown): PriceTable {
  const table = priceTableSchema.parse(json);
  const entries = new Map<string, PriceEntry>();
  for (const [model, row] of Object.entries(table.models)) {
    const completed = completeModelPrice({
      provider: row.provider,
      input: picoPerToken(row.input) ?? 0n,
      output: picoPerToken(row.output) ?? 0n,
      cacheRead: picoPerToken(row.cacheRead),
      cacheWrite5m: picoPerToken(row.cacheWrite5m),
      cacheWrite1h: picoPerToken(row.cacheWrite1h),
    });
    entries.set(model, { provider: row.provider, ...completed });
  }
  return { version: table.version, entries };
}

let shipped: PriceTable | undefined;

/** The table shipped with this build, parsed once. */
export function loadShippedPriceTable(): PriceTable {
  shipped ??= parsePriceTable(shippedTable);
  return shipped;
}

/** `overlay` wins per model; the version names both sources. */
export function mergePriceTables(base: PriceTable, overlay: PriceTable): PriceTable {
  const entries = new Map(base.entries);
  for (const [model, entry] of overlay.entries) entries.set(model, entry);
  return { version: `${base.version}+${overlay.version}`, entries };
}
