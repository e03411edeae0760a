/** Pure: an ApiKey object as the console shows it (state, Ready, limits, usage; never a value). */
import type { ApiKey } from '../../../crds/schema/resources.js';
import type { KeyView } from './key-schemas.js';

export function keyStateOf(apiKey: ApiKey, now: number): KeyView['state'] {
  const expiry = apiKey.spec.expirationTime;
  if (expiry !== undefined && Date.parse(expiry) <= now) return 'expired';
  return apiKey.spec.suspend === true ? 'disabled' : 'enabled';
}

export function nanoToUsd(nano: number): string {
  const negative = nano < 0;
  const micro = Math.round(Math.abs(nano) / 1000);
  const whole = Math.floor(micro / 1_000_000);
  const fraction = String(micro % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/**
 * Today's cost of a key in nano-USD; undefined when the user may not read usage, `'unavailable'`
 * when the ledger cannot be read (none configured, or unreachable).
 */
export type TodayCost = number | 'unavailable' | undefined;

export function keyViewOf(apiKey: ApiKey, extra: { now: number; todayCost?: TodayCost }): KeyView {
  const { spec, status, metadata } = apiKey;
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  const limit = (value: string | number | undefined): string | null =>
    value === undefined ? null : String(value);
  return {
    name: metadata.name,
    namespace: metadata.namespace ?? '',
    uid: metadata.uid,
    resourceVersion: metadata.resourceVersion,
    generation: metadata.generation,
    displayName: spec.displayName ?? metadata.name,
    groupName: spec.groupName ?? null,
    state: keyStateOf(apiKey, extra.now),
    ready: {
      status: ready?.status ?? 'Unknown',
      reason: ready?.reason ?? null,
      message: ready?.message ?? null,
    },
    keyHint: status?.keyHint ?? null,
    limits: {
      quotaUSD: limit(spec.limits?.quotaUSD),
      fiveHourUSD: limit(spec.limits?.fiveHourUSD),
      dailyUSD: limit(spec.limits?.dailyUSD),
      sevenDayUSD: limit(spec.limits?.sevenDayUSD),
    },
    sourceRanges: { allow: spec.sourceRanges?.allow ?? [], deny: spec.sourceRanges?.deny ?? [] },
    expirationTime: spec.expirationTime ?? null,
    maxConcurrentRequests: spec.maxConcurrentRequests ?? null,
    modelsAllow: spec.models?.allow ?? null,
    usage: {
      usedUSD: status?.usage?.usedUSD ?? null,
      windows: (status?.usage?.windows ?? []).map((window) => ({
        name: window.name,
        usedUSD: window.usedUSD,
        resetTime: window.resetTime ?? null,
      })),
      lastUsedTime: status?.usage?.lastUsedTime ?? null,
      todayCostUSD: typeof extra.todayCost === 'number' ? nanoToUsd(extra.todayCost) : null,
      ledgerUnavailable: extra.todayCost === 'unavailable',
    },
    createdTime: metadata.creationTimestamp,
  };
}
