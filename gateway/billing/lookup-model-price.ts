/**
 * Finds the price for a model (DESIGN.md 5.8, wire-formats.md 6), in this order: the group's
 * override for the model, the exact id in the table, the provider-prefixed id, the id with its date
 * suffix stripped (exact, then prefixed), the group's fallback price; otherwise none, and the caller
 * refuses the request.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { ModelPrice } from '../../store/policy-documents.js';
import { toPicoPrice, type PicoModelPrice } from './compute-cost.js';
import type { PriceTable } from './load-price-table.js';

export type PriceSource = 'override' | 'exact' | 'provider-prefixed' | 'date-stripped' | 'fallback';

export interface ResolvedPrice {
  price: PicoModelPrice;
  source: PriceSource;
  /** The table key or override name that matched; `*` for the group fallback. */
  key: string;
  fallbackFields: string[];
}

export interface LookupModelPriceOptions {
  model: string;
  platform: Platform;
  table: PriceTable;
  overrides?: Readonly<Record<string, ModelPrice>> | undefined;
  fallback?: ModelPrice | null | undefined;
}

const PROVIDER_PREFIXES: Record<Platform, readonly string[]> = {
  Anthropic: ['anthropic'],
  OpenAI: ['openai'],
  Gemini: ['gemini', 'vertex_ai'],
  Antigravity: ['antigravity', 'anthropic', 'gemini'],
};

const DATE_SUFFIXES = [/-\d{8}$/, /-\d{4}-\d{2}-\d{2}$/, /@\d{8}$/, /-latest$/];

/** `claude-sonnet-4-5-20250929` -> `claude-sonnet-4-5`; `gpt-4.1-2025-04-14` -> `gpt-4.1`. */
export function stripDateSuffix(model: string): string {
  for (const suffix of DATE_SUFFIXES) {
    if (suffix.test(model)) return model.replace(suffix, '');
  }
  return model;
}

function findInTable(
  table: PriceTable,
  ids: { model: string; prefixes: readonly string[] },
): { key: string; prefixed: boolean } | undefined {
  if (table.entries.has(ids.model)) return { key: ids.model, prefixed: false };
  for (const prefix of ids.prefixes) {
    const key = `${prefix}/${ids.model}`;
    if (table.entries.has(key)) return { key, prefixed: true };
  }
  return undefined;
}

export function lookupModelPrice(options: LookupModelPriceOptions): ResolvedPrice | null {
  const model = options.model.startsWith('models/') ? options.model.slice(7) : options.model;
  const override = options.overrides?.[model];
  if (override !== undefined) {
    return { price: toPicoPrice(override), source: 'override', key: model, fallbackFields: [] };
  }
  const prefixes = PROVIDER_PREFIXES[options.platform];
  const direct = findInTable(options.table, { model, prefixes });
  // The date suffixes are tried only when the id itself has no price (most calls have one).
  const stripped = direct === undefined ? stripDateSuffix(model) : model;
  const found =
    direct ??
    (stripped === model ? undefined : findInTable(options.table, { model: stripped, prefixes }));
  const entry = found === undefined ? undefined : options.table.entries.get(found.key);
  if (found !== undefined && entry !== undefined) {
    const source: PriceSource =
      found === direct ? (found.prefixed ? 'provider-prefixed' : 'exact') : 'date-stripped';
    return { price: entry.price, source, key: found.key, fallbackFields: entry.fallbackFields };
  }
  if (options.fallback !== undefined && options.fallback !== null) {
    return {
      price: toPicoPrice(options.fallback),
      source: 'fallback',
      key: '*',
      fallbackFields: [],
    };
  }
  return null;
}
