/**
 * The reservation admission takes before forwarding (DESIGN.md 5.4): input at about four bytes per
 * token at the input price, plus every output token the upstream is allowed to produce at the
 * output price. The output cap is the one the upstream is asked for (each protocol adapter's
 * `readOutputCap`, the same decision its translation uses). A request that sets no cap may be
 * answered with the model's own maximum, so the reservation assumes the largest output any
 * current model of the platform produces (`UNCAPPED_OUTPUT_TOKENS`). Settlement replaces the
 * reservation with the actual cost. See docs/billing.md section 4.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { ModelPrice } from '../../store/policy-documents.js';
import { computeCost, type Multiplier, type PicoModelPrice } from './compute-cost.js';

/**
 * Output reserved for a request without an output cap: the largest maximum output of the
 * platform's current models (Claude Opus 4.6 and GPT-5: 128,000; Gemini 2.5 and 3, and the
 * Antigravity models: 65,536). Anthropic and Antigravity's messages route require a cap, so
 * there it only covers requests the upstream or the translator refuses anyway.
 */
export const UNCAPPED_OUTPUT_TOKENS: Readonly<Record<Platform, number>> = {
  Anthropic: 128_000,
  OpenAI: 128_000,
  Gemini: 65_536,
  Antigravity: 65_536,
};

/**
 * The most output tokens ever reserved, far above any model's output limit: a cap beyond it is
 * refused upstream, and the bound keeps the arithmetic exact.
 */
export const MAX_RESERVED_OUTPUT_TOKENS = 1_000_000;

/**
 * The output allowance of a request that asks for several answers (Chat Completions `n`, Gemini
 * `candidateCount`), each capped at `cap` (null = no cap: the platform's assumption per answer):
 * the answers' caps added up. One answer: the cap as it is.
 */
export function outputAllowance(options: {
  cap: number | null;
  answers: number;
  platform: Platform;
}): number | null {
  const { cap, answers } = options;
  if (!Number.isSafeInteger(answers) || answers <= 1) return cap;
  const perAnswer = cap ?? UNCAPPED_OUTPUT_TOKENS[options.platform];
  return Math.min(perAnswer * answers, MAX_RESERVED_OUTPUT_TOKENS);
}

/** The output tokens reserved for a request with this cap (null = none) on this platform. */
export function reservedOutputTokens(outputCap: number | null, platform: Platform): number {
  const cap =
    outputCap === null || !Number.isFinite(outputCap) || outputCap < 0
      ? UNCAPPED_OUTPUT_TOKENS[platform]
      : Math.ceil(outputCap);
  return Math.min(cap, MAX_RESERVED_OUTPUT_TOKENS);
}

export interface EstimateRequestCostOptions {
  bodyBytes: number;
  /** Output tokens to reserve (`reservedOutputTokens`). */
  outputTokens: number;
  price: ModelPrice | PicoModelPrice;
  multiplier: Multiplier;
}

export function estimateRequestCost(options: EstimateRequestCostOptions): number {
  const output = Number.isFinite(options.outputTokens)
    ? Math.min(Math.max(Math.ceil(options.outputTokens), 0), MAX_RESERVED_OUTPUT_TOKENS)
    : MAX_RESERVED_OUTPUT_TOKENS;
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
