/** Turns script replies into the contract's types. */
import type { AdmissionRefusal, AdmissionResult, KeyCounters, WindowName } from './store.js';
import { WINDOWS } from './store.js';
import { MEMBER_WINDOWS, PLAN_WINDOWS } from './budget-windows.js';
import type { MemberWindowName, PlanWindowName } from './budget-windows.js';

function isPlanWindow(value: string): value is PlanWindowName {
  return (PLAN_WINDOWS as readonly string[]).includes(value);
}

function isMemberWindow(value: string): value is MemberWindowName {
  return (MEMBER_WINDOWS as readonly string[]).includes(value);
}

function isWindowName(value: string): value is WindowName {
  return WINDOWS.some((window) => window.name === value);
}

function refusalFrom(reason: string, window: string, value: number): AdmissionRefusal {
  switch (reason) {
    case 'QuotaExhausted':
    case 'SourceDenied':
    case 'NoAccount':
    case 'BalanceExhausted':
    case 'ModelDenied':
    case 'SubscriptionExpired':
      return { reason };
    case 'SubscriptionExhausted':
      if (!isPlanWindow(window)) break;
      return { reason, window, retryAfterSeconds: value };
    case 'MemberBudgetExhausted':
      if (!isMemberWindow(window)) break;
      return { reason, window, retryAfterSeconds: value };
    case 'AccountConcurrency':
    case 'KeyConcurrency':
      return { reason, limit: value };
    case 'WindowExhausted':
      if (!isWindowName(window)) break;
      return { reason, window, retryAfterSeconds: value };
    case 'CountersRestoring':
      return { reason, retryAfterSeconds: value };
  }
  throw new Error(`unexpected admission reply: ${reason}`);
}

export function parseAdmissionReply(reply: unknown): AdmissionResult {
  if (!Array.isArray(reply)) throw new Error('unexpected admission reply');
  const [status, first, window, value] = reply.map(String);
  if (status === 'ok') {
    // A third element answers a session lookup: the bound upstream, '' for none.
    if (reply.length < 3) return { admitted: true, accountUid: first ?? '' };
    return {
      admitted: true,
      accountUid: first ?? '',
      boundUpstream: window === undefined || window === '' ? null : window,
    };
  }
  return {
    admitted: false,
    refusal: refusalFrom(first ?? '', window ?? '', Number(value ?? '0')),
  };
}

/** Reads the key counters hash (flat HGETALL reply); expired windows report 0 and null. */
export function parseKeyCounters(reply: unknown, now: number): KeyCounters {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let index = 0; index + 1 < reply.length; index += 2) {
      fields.set(String(reply[index]), String(reply[index + 1]));
    }
  }
  const numberOf = (field: string): number => Number(fields.get(field) ?? '0');
  return {
    usedNano: numberOf('used'),
    reservedNano: numberOf('reserved'),
    windows: WINDOWS.map((window) => {
      const end = numberOf(`${window.name}:end`);
      const open = end > now;
      return {
        name: window.name,
        usedNano: open ? numberOf(`${window.name}:used`) : 0,
        resetTime: open ? end : null,
      };
    }),
    lastUsedTime: fields.has('lastUsed') ? numberOf('lastUsed') : null,
    lastQuotaResetToken: fields.get('resetToken') ?? null,
  };
}
