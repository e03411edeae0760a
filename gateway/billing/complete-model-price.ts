/**
 * Fills the cache prices a price source left out (wire-formats.md 6: missing means "not listed",
 * not "free"). Anthropic-priced models use the provider multipliers (read 0.1x, 5-minute write 1.25x,
 * 1-hour write 2x input); others bill a missing cache price at the input rate. Every filled field is
 * recorded, so a bill can show it used a fallback.
 */
import type { PicoModelPrice } from './compute-cost.js';

export interface PartialPicoPrice {
  provider: string;
  /** Fill missing cache prices with Anthropic's multipliers (default: when the provider is `anthropic`). */
  anthropicMultipliers?: boolean;
  input: bigint;
  output: bigint;
  cacheRead?: bigint | undefined;
  cacheWrite5m?: bigint | undefined;
  cacheWrite1h?: bigint | undefined;
}

export interface CompletedPrice {
  price: PicoModelPrice;
  fallbackFields: string[];
}

const ANTHROPIC_MULTIPLIERS: Record<
  'cacheRead' | 'cacheWrite5m' | 'cacheWrite1h',
  { numerator: bigint; denominator: bigint }
> = {
  cacheRead: { numerator: 1n, denominator: 10n },
  cacheWrite5m: { numerator: 5n, denominator: 4n },
  cacheWrite1h: { numerator: 2n, denominator: 1n },
};

function isAnthropicPriced(provider: string): boolean {
  return provider === 'anthropic';
}

function toNumber(value: bigint): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`price out of range: ${value}`);
  }
  return Number(value);
}

export function completeModelPrice(partial: PartialPicoPrice): CompletedPrice {
  const fallbackFields: string[] = [];
  const fill = (field: keyof typeof ANTHROPIC_MULTIPLIERS): bigint => {
    const given = partial[field];
    if (given !== undefined) return given;
    fallbackFields.push(field);
    if (!(partial.anthropicMultipliers ?? isAnthropicPriced(partial.provider)))
      return partial.input;
    const { numerator, denominator } = ANTHROPIC_MULTIPLIERS[field];
    return (partial.input * numerator * 2n + denominator) / (denominator * 2n);
  };
  const price: PicoModelPrice = {
    unit: 'pico',
    input: toNumber(partial.input),
    output: toNumber(partial.output),
    cacheRead: toNumber(fill('cacheRead')),
    cacheWrite5m: toNumber(fill('cacheWrite5m')),
    cacheWrite1h: toNumber(fill('cacheWrite1h')),
  };
  return { price, fallbackFields };
}
