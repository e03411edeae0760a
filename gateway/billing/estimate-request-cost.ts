/**
 * The reservation admission takes before forwarding (DESIGN.md 5.4): a modest estimate, input at
 * about four bytes per token at the input price, plus the smaller of the requested output limit and
 * 1024 output tokens. Settlement replaces it with the actual cost.
 */
import type { ModelPrice } from '../store/policy-documents.js';
import { computeCost, type Multiplier, type PicoModelPrice } from './compute-cost.js';

export const RESERVED_OUTPUT_TOKENS = 1024;

export interface EstimateRequestCostOptions {
  bodyBytes: number;
  maxOutputTokens?: number | undefined;
  price: ModelPrice | PicoModelPrice;
  multiplier: Multiplier;
}

export function estimateRequestCost(options: EstimateRequestCostOptions): number {
  const requested = options.maxOutputTokens;
  const output =
    requested === undefined || !Number.isFinite(requested) || requested < 0
      ? RESERVED_OUTPUT_TOKENS
      : Math.min(Math.floor(requested), RESERVED_OUTPUT_TOKENS);
  const usage = {
    inputUncached: Math.ceil(Math.max(options.bodyBytes, 0) / 4),
    cacheRead: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output,
    reasoning: 0,
  };
  return computeCost(usage, options.price, options.multiplier);
}
