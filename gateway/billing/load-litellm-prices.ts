/**
 * Loads an operator-supplied price file in LiteLLM's `model_prices_and_context_window.json` format
 * (USD per token, possibly in exponent notation; provider-prefixed keys kept as they are). Only
 * text-generation entries with input and output prices are taken. Missing cache prices fall back to
 * the provider multipliers (Claude models on any provider use Anthropic's) and are recorded; entries that contradict the Anthropic cache-write
 * multipliers by more than 5 % are kept but reported.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { completeModelPrice } from './complete-model-price.js';
import type { PriceEntry, PriceTable } from './load-price-table.js';
import { scaleDecimal } from './parse-usd-amount.js';

const TEXT_MODES = new Set(['chat', 'completion', 'responses']);

const costField = z.number().nonnegative().optional().catch(undefined);

const liteLlmEntrySchema = z.looseObject({
  litellm_provider: z.string().optional().catch(undefined),
  mode: z.string().optional().catch(undefined),
  input_cost_per_token: costField,
  output_cost_per_token: costField,
  cache_read_input_token_cost: costField,
  cache_creation_input_token_cost: costField,
  cache_creation_input_token_cost_above_1hr: costField,
});

export interface LiteLlmPrices {
  table: PriceTable;
  /** Entries skipped or suspicious, with the reason. */
  warnings: string[];
}

/** USD per token -> pico-USD per token (x 1e12), rounded half up beyond the pico. */
function picoFromUsdPerToken(value: number | undefined): bigint | undefined {
  return value === undefined ? undefined : (scaleDecimal(value, 12)?.value ?? undefined);
}

function checkAnthropicMultipliers(model: string, entry: PriceEntry, warnings: string[]): void {
  const { input, cacheRead, cacheWrite5m, cacheWrite1h } = entry.price;
  const expected = { cacheRead: input / 10, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2 };
  const given = { cacheRead, cacheWrite5m, cacheWrite1h };
  for (const field of ['cacheRead', 'cacheWrite5m', 'cacheWrite1h'] as const) {
    if (entry.fallbackFields.includes(field) || field === 'cacheRead') continue;
    if (Math.abs(given[field] - expected[field]) > expected[field] * 0.05) {
      warnings.push(`${model}: ${field} differs from the provider multiplier`);
    }
  }
}

export function parseLiteLlmPrices(json: unknown, options: { version: string }): LiteLlmPrices {
  const warnings: string[] = [];
  const entries = new Map<string, PriceEntry>();
  const root = z.record(z.string(), z.unknown()).parse(json);
  for (const [model, raw] of Object.entries(root)) {
    if (model === 'sample_spec') continue;
    const parsed = liteLlmEntrySchema.safeParse(raw);
    if (!parsed.success) continue;
    const row = parsed.data;
    if (row.mode !== undefined && !TEXT_MODES.has(row.mode)) continue;
    const input = picoFromUsdPerToken(row.input_cost_per_token);
    const output = picoFromUsdPerToken(row.output_cost_per_token);
    if (input === undefined || output === undefined) {
      warnings.push(`${model}: no input or output price; skipped`);
      continue;
    }
    const provider = row.litellm_provider ?? model.split('/')[0] ?? 'unknown';
    const claude = provider.includes('anthropic') || /(^|[/.])claude-/.test(model);
    const completed = completeModelPrice({
      provider,
      anthropicMultipliers: claude,
      input,
      output,
      cacheRead: picoFromUsdPerToken(row.cache_read_input_token_cost),
      cacheWrite5m: picoFromUsdPerToken(row.cache_creation_input_token_cost),
      cacheWrite1h: picoFromUsdPerToken(row.cache_creation_input_token_cost_above_1hr),
    });
    const entry = { provider, ...completed };
    if (claude) checkAnthropicMultipliers(model, entry, warnings);
    entries.set(model, entry);
  }
  return { table: { version: options.version, entries }, warnings };
}

/** Reads a LiteLLM price file; its version is `litellm-` plus the first 12 hex of its SHA-256. */
export async function loadLiteLlmPriceFile(path: string): Promise<LiteLlmPrices> {
  const text = await readFile(path, 'utf8');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return parseLiteLlmPrices(JSON.parse(text) as unknown, { version: `litellm-${digest}` });
}
