/** Group prices (USD per million tokens) -> integer nano-USD per token, with the documented defaults. */
import type { GroupSpec } from '../../crds/schema/resources.js';
import type { ModelPrice } from '../../store/policy-documents.js';
import { divideRounded, parseMoneyToNano } from './parse-money.js';

type PriceSpec = NonNullable<NonNullable<GroupSpec['pricing']>['fallback']>;

/** USD per MTok -> nano-USD per token is a division by 1e6 of nano-USD per MTok, rounded half up. */
function perToken(nanoPerMTok: number): number {
  return divideRounded(nanoPerMTok, 1_000_000);
}

export function projectModelPrice(spec: PriceSpec): ModelPrice {
  const input = parseMoneyToNano(spec.inputPerMTok);
  const output = parseMoneyToNano(spec.outputPerMTok);
  const cacheRead =
    spec.cacheReadPerMTok === undefined
      ? divideRounded(input, 10)
      : parseMoneyToNano(spec.cacheReadPerMTok);
  const cacheWrite5m =
    spec.cacheWrite5mPerMTok === undefined
      ? divideRounded(input * 5, 4)
      : parseMoneyToNano(spec.cacheWrite5mPerMTok);
  const cacheWrite1h =
    spec.cacheWrite1hPerMTok === undefined ? input * 2 : parseMoneyToNano(spec.cacheWrite1hPerMTok);
  return {
    input: perToken(input),
    output: perToken(output),
    cacheRead: perToken(cacheRead),
    cacheWrite5m: perToken(cacheWrite5m),
    cacheWrite1h: perToken(cacheWrite1h),
  };
}

export function projectPricing(pricing: GroupSpec['pricing']): {
  priceOverrides: Record<string, ModelPrice>;
  priceFallback: ModelPrice | null;
} {
  const priceOverrides: Record<string, ModelPrice> = {};
  for (const override of pricing?.overrides ?? []) {
    priceOverrides[override.model] = projectModelPrice(override);
  }
  const fallback = pricing?.fallback;
  return {
    priceOverrides,
    priceFallback: fallback === undefined ? null : projectModelPrice(fallback),
  };
}
