/**
 * The price of one request, decided at admission (DESIGN.md 5.8): the requested model looked up in
 * the gateway's table with the key document's group overrides and fallback, and the reservation
 * estimate from the body size and the protocol's output limit. Pure; no clock, no store.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { KeyPolicy } from '../store/policy-documents.js';
import type { Multiplier, PicoModelPrice } from './compute-cost.js';
import { estimateRequestCost } from './estimate-request-cost.js';
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

/** Output-limit fields of every protocol, in the order they are read (the first number wins). */
const OUTPUT_LIMIT_PATHS: readonly (readonly string[])[] = [
  ['max_tokens'],
  ['max_output_tokens'],
  ['max_completion_tokens'],
  ['generationConfig', 'maxOutputTokens'],
  ['request', 'generationConfig', 'maxOutputTokens'],
];

function readPath(json: unknown, path: readonly string[]): unknown {
  let value = json;
  for (const field of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

/** The caller's output limit in any protocol's field, or undefined when it sets none. */
export function readMaxOutputTokens(json: unknown): number | undefined {
  for (const path of OUTPUT_LIMIT_PATHS) {
    const value = readPath(json, path);
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** Token-counting endpoints are free: no price needed, nothing reserved or billed. */
export function isTokenCountPath(path: string): boolean {
  return path.endsWith('/count_tokens') || path.endsWith(':countTokens');
}

/** The reservation for a priced request. */
export function estimateReservation(options: {
  price: RequestPrice;
  bodyBytes: number;
  json: unknown;
}): number {
  return estimateRequestCost({
    bodyBytes: options.bodyBytes,
    maxOutputTokens: readMaxOutputTokens(options.json),
    price: options.price.price,
    multiplier: options.price.multiplier,
  });
}
