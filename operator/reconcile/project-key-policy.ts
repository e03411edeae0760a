/** ApiKey (+ its group, when usable) -> KeyPolicy, the one document the gateway reads per request. */
import type { ApiKey, Group } from '../../crds/schema/resources.js';
import type { KeyPolicy, KeyState } from '../../store/policy-documents.js';
import { withDigest } from './compute-digest.js';
import { parseMoneyToNano } from './parse-money.js';
import { projectCaptureSettings } from './project-capture-settings.js';
import { projectGroupForKey } from './project-group-policy.js';

function limitNano(value: number | string | undefined): number {
  return value === undefined ? 0 : parseMoneyToNano(value);
}

export function parseExpiration(apiKey: ApiKey): number | null {
  const text = apiKey.spec.expirationTime;
  if (text === undefined) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : time;
}

export interface KeyPolicyInput {
  apiKey: ApiKey;
  state: KeyState;
  /** The key's group; embedded only when the state is Active. */
  group: Group | null;
  /** Its account's plan and member limits as the gateway needs them (project-key-budget.ts). */
  budget?: KeyPolicy['budget'] | null;
}

export function projectKeyPolicy(input: KeyPolicyInput): KeyPolicy {
  const { apiKey, state } = input;
  const spec = apiKey.spec;
  const limits = spec.limits ?? {};
  // Only a key whose calls are captured carries the field, so other documents keep their digest.
  const group = state === 'Active' ? input.group : null;
  const capture =
    group === null ? undefined : projectCaptureSettings(spec.capture, group.spec.capture);
  return withDigest({
    keyUid: apiKey.metadata.uid,
    namespace: apiKey.metadata.namespace ?? '',
    name: apiKey.metadata.name,
    state,
    suspended: spec.suspend ?? false,
    expiresAt: parseExpiration(apiKey),
    limits: {
      quotaNano: limitNano(limits.quotaUSD),
      fiveHourNano: limitNano(limits.fiveHourUSD),
      dailyNano: limitNano(limits.dailyUSD),
      sevenDayNano: limitNano(limits.sevenDayUSD),
    },
    sourceRanges: { allow: spec.sourceRanges?.allow ?? [], deny: spec.sourceRanges?.deny ?? [] },
    maxConcurrent: spec.maxConcurrentRequests ?? 0,
    modelsAllow: spec.models?.allow ?? null,
    group: state === 'Active' && input.group !== null ? projectGroupForKey(input.group) : null,
    ...(spec.owner === undefined ? {} : { owner: spec.owner }),
    ...(input.budget == null ? {} : { budget: input.budget }),
    ...(capture === undefined ? {} : { capture }),
  });
}
