/**
 * Pure: an ApiKey object as the console shows it (state, Ready, limits, usage; never a value). The
 * usage figures are the store's live counters when the caller read them, else the status's.
 */
import type { ApiKey } from '../../../crds/schema/resources.js';
import type { KeyCounters } from '../../../store/store.js';
import { nanoToUsd } from '../usage/nano-to-usd.js';
import type { KeyView } from './key-schemas.js';

export function keyStateOf(apiKey: ApiKey, now: number): KeyView['state'] {
  const expiry = apiKey.spec.expirationTime;
  if (expiry !== undefined && Date.parse(expiry) <= now) return 'expired';
  return apiKey.spec.suspend === true ? 'disabled' : 'enabled';
}

const isoTime = (time: number): string => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

type CounterFigures = Pick<KeyView['usage'], 'usedUSD' | 'windows' | 'lastUsedTime'>;

/** Pure: the store's live counters in the status's shape (ended windows: 0, no reset time). */
export function counterFiguresOf(counters: KeyCounters): CounterFigures {
  return {
    usedUSD: nanoToUsd(counters.usedNano),
    windows: counters.windows.map((window) => ({
      name: window.name,
      usedUSD: nanoToUsd(window.usedNano),
      resetTime: window.resetTime === null ? null : isoTime(window.resetTime),
    })),
    lastUsedTime: counters.lastUsedTime === null ? null : isoTime(counters.lastUsedTime),
  };
}

/** Pure: the figures of the ApiKey status, as the operator last wrote them. */
function statusFiguresOf(status: ApiKey['status']): CounterFigures {
  return {
    usedUSD: status?.usage?.usedUSD ?? null,
    windows: (status?.usage?.windows ?? []).map((window) => ({
      name: window.name,
      usedUSD: window.usedUSD,
      resetTime: window.resetTime ?? null,
    })),
    lastUsedTime: status?.usage?.lastUsedTime ?? null,
  };
}

/**
 * Today's cost of a key in nano-USD; undefined when the user may not read usage, `'unavailable'`
 * when the ledger cannot be read (none configured, or unreachable).
 */
export type TodayCost = number | 'unavailable' | undefined;

export interface KeyViewExtra {
  now: number;
  todayCost?: TodayCost;
  /** The key's live counters; absent (no store, or unreachable): the status's figures. */
  counters?: KeyCounters | undefined;
}

export function keyViewOf(apiKey: ApiKey, extra: KeyViewExtra): KeyView {
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
    owner: spec.owner ?? null,
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
      ...(extra.counters === undefined
        ? statusFiguresOf(status)
        : counterFiguresOf(extra.counters)),
      todayCostUSD: typeof extra.todayCost === 'number' ? nanoToUsd(extra.todayCost) : null,
      ledgerUnavailable: extra.todayCost === 'unavailable',
      countersSource: extra.counters === undefined ? 'status' : 'store',
    },
    createdTime: metadata.creationTimestamp,
  };
}
