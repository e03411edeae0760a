/**
 * The answer of `GET /v1/usage`: the calling key's quota, its spend windows and its usage, from
 * one read of the key's counters (the same read the operator projects into the ApiKey's
 * `status.usage`). Amounts are USD numbers (nano-USD / 1e9); times RFC 3339. Pure.
 *
 * - `quota.remaining` is the limit minus the used and the reserved (in-flight requests), never
 *   below zero; null, like `limit`, when the key has no quota. Windows likewise.
 * - `today` is the key's open Daily window: the 24 hours from the first charge after the previous
 *   one ended (the counters keep no calendar day; the ledger's daily figures are in the console).
 * - `total` is the used quota: everything charged since the key's last quota reset.
 */
import type { KeyCounters, KeyPolicy, WindowName } from '../../store/store.js';
import { windowLimit } from '../../store/window-limit.js';
import type { AuthorizedPolicy } from '../stages/authorize/authorize-request.js';

const NANO_PER_USD = 1e9;

export interface UsageWindow {
  name: WindowName;
  limit: number | null;
  used: number;
  remaining: number | null;
  resetTime: string | null;
}

export interface KeyUsageAnswer {
  object: 'usage';
  key: { name: string; namespace: string; group: string; platform: string };
  unit: 'USD';
  quota: { limit: number | null; used: number; reserved: number; remaining: number | null };
  windows: UsageWindow[];
  today: { used: number };
  total: { used: number };
  lastUsedTime: string | null;
  expiresTime: string | null;
}

function usd(nano: number): number {
  return nano / NANO_PER_USD;
}

function time(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Limit and remaining of one budget; a limit of 0 means none. */
function budget(limitNano: number, spentNano: number) {
  if (limitNano <= 0) return { limit: null, remaining: null };
  return { limit: usd(limitNano), remaining: usd(Math.max(0, limitNano - spentNano)) };
}

export function renderKeyUsage(policy: AuthorizedPolicy, counters: KeyCounters): KeyUsageAnswer {
  const limits: KeyPolicy['limits'] = policy.limits;
  const quota = budget(limits.quotaNano, counters.usedNano + counters.reservedNano);
  const windows = counters.windows.map((window): UsageWindow => {
    const { limit, remaining } = budget(windowLimit(limits, window.name), window.usedNano);
    return {
      name: window.name,
      limit,
      used: usd(window.usedNano),
      remaining,
      resetTime: time(window.resetTime),
    };
  });
  const daily = counters.windows.find((window) => window.name === 'Daily');
  return {
    object: 'usage',
    key: {
      name: policy.name,
      namespace: policy.namespace,
      group: policy.group.name,
      platform: policy.group.platform,
    },
    unit: 'USD',
    quota: {
      limit: quota.limit,
      used: usd(counters.usedNano),
      reserved: usd(counters.reservedNano),
      remaining: quota.remaining,
    },
    windows,
    today: { used: usd(daily?.usedNano ?? 0) },
    total: { used: usd(counters.usedNano) },
    lastUsedTime: time(counters.lastUsedTime),
    expiresTime: time(policy.expiresAt),
  };
}
