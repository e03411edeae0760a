/** The ApiKey status: conditions from the decision, hint, usage figures, handled quota reset. */
import type { ApiKeyStatus, Condition } from '../../crds/schema/resources.js';
import type { KeyCounters } from '../../store/store.js';
import type { KeyDecision } from './decide-key-state.js';
import { formatTime, mergeConditions } from './manage-conditions.js';
import { formatNanoAsUSD } from './parse-money.js';

export type KeyUsage = NonNullable<ApiKeyStatus['usage']>;

/** Usage figures from the counters; `observedTime` is set by the caller when they changed. */
export function projectKeyUsage(counters: KeyCounters): Omit<KeyUsage, 'observedTime'> {
  const usage: Omit<KeyUsage, 'observedTime'> = {
    usedUSD: formatNanoAsUSD(counters.usedNano),
    windows: counters.windows.map((window) => {
      const out: NonNullable<KeyUsage['windows']>[number] = {
        name: window.name,
        usedUSD: formatNanoAsUSD(window.usedNano),
      };
      if (window.resetTime !== null) out.resetTime = formatTime(window.resetTime);
      return out;
    }),
  };
  if (counters.lastUsedTime !== null) usage.lastUsedTime = formatTime(counters.lastUsedTime);
  return usage;
}

/** Keeps the current usage (and its observedTime) when the figures did not change. */
export function mergeKeyUsage(
  current: KeyUsage | undefined,
  figures: Omit<KeyUsage, 'observedTime'>,
  now: number,
): KeyUsage {
  if (current !== undefined) {
    const currentFigures: Partial<KeyUsage> = { ...current };
    delete currentFigures.observedTime;
    if (JSON.stringify(currentFigures) === JSON.stringify(figures)) return current;
  }
  return { ...figures, observedTime: formatTime(now) };
}

export interface KeyStatusInput {
  current: ApiKeyStatus | undefined;
  decision: KeyDecision;
  /** True when this generation's policy document is in the store. */
  programmed: boolean;
  keyHint: string | undefined;
  usage: KeyUsage | undefined;
  lastHandledQuotaReset: string | undefined;
  generation: number;
  now: number;
}

export function projectKeyStatus(input: KeyStatusInput): ApiKeyStatus {
  const { decision } = input;
  const active = decision.ready.reason === 'Active';
  const conditions: Condition[] = mergeConditions({
    current: input.current?.conditions,
    desired: [
      {
        type: 'Ready',
        status: active ? 'True' : 'False',
        reason: decision.ready.reason,
        message: decision.ready.message,
      },
      decision.resolvedRefs,
      input.programmed
        ? {
            type: 'Programmed',
            status: 'True',
            reason: 'Programmed',
            message: `generation ${input.generation} is in the policy cache`,
          }
        : {
            type: 'Programmed',
            status: 'False',
            reason: 'NotProgrammed',
            message: 'no policy document is written for this key',
          },
    ],
    generation: input.generation,
    now: new Date(input.now),
  });
  const status: ApiKeyStatus = { observedGeneration: input.generation, conditions };
  if (input.keyHint !== undefined) status.keyHint = input.keyHint;
  if (input.usage !== undefined) status.usage = input.usage;
  if (input.lastHandledQuotaReset !== undefined) {
    status.lastHandledQuotaReset = input.lastHandledQuotaReset;
  }
  return status;
}

/** Compares two statuses ignoring key order. */
export function sameStatus(a: unknown, b: unknown): boolean {
  return stableText(a) === stableText(b);
}

function stableText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1)),
        )
      : item,
  );
}
