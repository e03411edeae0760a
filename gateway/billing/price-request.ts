/**
 * The price of one request, decided at admission (DESIGN.md 5.8): the requested model looked up in
 * the gateway's table with the key document's group overrides and fallback, and the reservation
 * estimate from the body size and the output cap the upstream is asked for (the protocol
 * adapter's `readOutputCap`). Pure; no clock, no store.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { KeyPolicy, ModelPrice } from '../../store/policy-documents.js';
import { toPicoPrice, type Multiplier, type PicoModelPrice } from './compute-cost.js';
import { estimateRequestCost, reservedOutputTokens } from './estimate-request-cost.js';
import type { PriceTable } from './load-price-table.js';
import { lookupModelPrice, type PriceSource } from './lookup-model-price.js';

export interface RequestPrice {
  price: PicoModelPrice;
  /** The table version, or `override` / `fallback` combined with it, stored in the usage record. */
  version: string;
  source: PriceSource;
  /** The table key or override that matched (`*` for the fallback); bounded, used as metric label. */
  key: string;
  multiplier: Multiplier;
}

export interface PriceRequestOptions {
  model: string;
  platform: Platform;
  group: Pick<NonNullable<KeyPolicy['group']>, 'priceOverrides' | 'priceFallback' | 'multiplier'>;
  table: PriceTable;
}

export function priceRequest(options: PriceRequestOptions): RequestPrice | null {
  const { group, table } = options;
  const resolved = lookupModelPrice({
    model: options.model,
    platform: options.platform,
    table,
    overrides: group.priceOverrides,
    fallback: group.priceFallback,
  });
  if (resolved === null) return null;
  const fromTable = resolved.source !== 'override' && resolved.source !== 'fallback';
  return {
    price: resolved.price,
    version: fromTable ? table.version : `${table.version}/group-${resolved.source}`,
    source: resolved.source,
    key: resolved.key,
    multiplier: group.multiplier,
  };
}

/** The `priceVersion` suffix of a call an Upstream's price override priced. */
export const UPSTREAM_OVERRIDE_VERSION = 'upstream-override';

/**
 * The price of a call the serving upstream prices itself (`Upstream.spec.pricing`): its override
 * for the billed model, else for the model as sent upstream (after modelOverrides); null when it
 * has none (the admission's price stands). Free calls (no admission price) stay free; the group's
 * multiplier applies as to every price.
 */
export function priceByUpstream(options: {
  admitted: RequestPrice | null;
  overrides: Readonly<Record<string, ModelPrice>> | null;
  model: string | null;
  upstreamModel: string | null;
}): RequestPrice | null {
  const { admitted, overrides, model } = options;
  if (admitted === null || overrides === null || model === null) return null;
  let key = model;
  let override = overrides[model];
  if (override === undefined && options.upstreamModel !== null) {
    key = options.upstreamModel;
    override = overrides[key];
  }
  if (override === undefined) return null;
  const tableVersion = admitted.version.split('/', 1)[0] ?? admitted.version;
  return {
    price: toPicoPrice(override),
    version: `${tableVersion}/${UPSTREAM_OVERRIDE_VERSION}`,
    source: 'override',
    key,
    multiplier: admitted.multiplier,
  };
}

/** Token-counting endpoints are free: no price needed, nothing reserved or billed. */
export function isTokenCountPath(path: string): boolean {
  return path.endsWith('/count_tokens') || path.endsWith(':countTokens');
}

/**
 * The reservation for a priced request: body bytes / 4 input tokens, and the output tokens the
 * upstream may produce under `outputCap` (null = the request sets none; see
 * `reservedOutputTokens`).
 */
export function estimateReservation(options: {
  price: RequestPrice;
  bodyBytes: number;
  outputCap: number | null;
  platform: Platform;
}): number {
  return estimateRequestCost({
    bodyBytes: options.bodyBytes,
    outputTokens: reservedOutputTokens(options.outputCap, options.platform),
    price: options.price.price,
    multiplier: options.price.multiplier,
  });
}
