/**
 * Cost of one request (DESIGN.md 5.8): the sum of bucket tokens times the model's price, times the
 * group's multiplier, in integer nano-USD rounded once, half up. Prices may be given per token in
 * nano-USD (`ModelPrice`, the policy-document contract) or in pico-USD (`PicoModelPrice`, what the
 * price table holds, so sub-nano prices such as $0.01875/MTok stay exact). Arithmetic is in BigInt.
 */
import type { ModelPrice } from '../../store/policy-documents.js';
import type { UsageBuckets } from '../../store/usage-buckets.js';

/** Prices in integer pico-USD (1e-12) per token: USD per MTok x 1_000_000. */
export interface PicoModelPrice {
  unit: 'pico';
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

export interface Multiplier {
  numerator: number;
  denominator: number;
}

const PICO_PER_NANO = 1000n;

export function toPicoPrice(price: ModelPrice | PicoModelPrice): PicoModelPrice {
  if ('unit' in price) return price;
  return {
    unit: 'pico',
    input: price.input * 1000,
    output: price.output * 1000,
    cacheRead: price.cacheRead * 1000,
    cacheWrite5m: price.cacheWrite5m * 1000,
    cacheWrite1h: price.cacheWrite1h * 1000,
  };
}

/** Rounds a pico price to the nano-USD contract type (half up); exact for whole-nano prices. */
export function toNanoPrice(price: PicoModelPrice): ModelPrice {
  const round = (pico: number): number => Math.floor((pico + 500) / 1000);
  return {
    input: round(price.input),
    output: round(price.output),
    cacheRead: round(price.cacheRead),
    cacheWrite5m: round(price.cacheWrite5m),
    cacheWrite1h: round(price.cacheWrite1h),
  };
}

function checkedBigInt(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
  }
  return BigInt(value);
}

/** Sum of tokens x pico price, unrounded (reasoning is part of output and not added again). */
export function sumPicoCost(usage: UsageBuckets, price: ModelPrice | PicoModelPrice): bigint {
  const pico = toPicoPrice(price);
  const term = (tokens: number, perToken: number, bucket: string): bigint =>
    checkedBigInt(tokens, `${bucket} tokens`) * checkedBigInt(perToken, `${bucket} price`);
  return (
    term(usage.inputUncached, pico.input, 'input') +
    term(usage.cacheRead, pico.cacheRead, 'cacheRead') +
    term(usage.cacheWrite5m, pico.cacheWrite5m, 'cacheWrite5m') +
    term(usage.cacheWrite1h, pico.cacheWrite1h, 'cacheWrite1h') +
    term(usage.output, pico.output, 'output')
  );
}

function nanoCost(
  usage: UsageBuckets,
  price: ModelPrice | PicoModelPrice,
  multiplier: Multiplier,
): bigint {
  const numerator = checkedBigInt(multiplier.numerator, 'multiplier numerator');
  const denominator = checkedBigInt(multiplier.denominator, 'multiplier denominator');
  if (denominator === 0n) throw new RangeError('multiplier denominator must be positive');
  const scaled = sumPicoCost(usage, price) * numerator;
  const divisor = denominator * PICO_PER_NANO;
  return (scaled * 2n + divisor) / (divisor * 2n);
}

/**
 * Integer nano-USD: sum(bucket tokens x price) x multiplier, rounded once, half up. Throws a
 * RangeError on tokens that are not non-negative safe integers and on a cost beyond 2^53.
 */
export function computeCost(
  usage: UsageBuckets,
  price: ModelPrice | PicoModelPrice,
  multiplier: Multiplier,
): number {
  const nano = nanoCost(usage, price, multiplier);
  if (nano > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('cost is too large');
  return Number(nano);
}

/**
 * `computeCost` for settlement, on usage already checked (`checkUsageInvariants`): a cost beyond
 * 2^53 nano-USD (about $9M, reachable only with absurd prices) is held at that bound and reported
 * as `capped` instead of throwing.
 */
export function computeBoundedCost(
  usage: UsageBuckets,
  price: ModelPrice | PicoModelPrice,
  multiplier: Multiplier,
): { costNano: number; capped: boolean } {
  const nano = nanoCost(usage, price, multiplier);
  const bound = BigInt(Number.MAX_SAFE_INTEGER);
  return nano > bound
    ? { costNano: Number.MAX_SAFE_INTEGER, capped: true }
    : { costNano: Number(nano), capped: false };
}
