/**
 * Pure translation of console key input into ApiKey spec fields (create) or a JSON merge patch
 * (edit). `null` in an edit removes the field; absent leaves it.
 */
import type { CreateKeyInput, EditKeyInput } from './key-schemas.js';

type Json = Record<string, unknown>;

export function expirationOf(
  input: { expirationTime?: string | null | undefined; validFor?: string | undefined },
  now: number,
): string | null | undefined {
  if (input.validFor !== undefined) {
    const amount = Number(input.validFor.slice(0, -1));
    const unit = input.validFor.endsWith('h') ? 3_600_000 : 86_400_000;
    return new Date(now + amount * unit).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return input.expirationTime;
}

/** Only the fields present in the input; nulls kept (a merge patch removes them). */
function specFields(input: EditKeyInput | CreateKeyInput, now: number): Json {
  const spec: Json = {};
  if (input.displayName !== undefined) spec.displayName = input.displayName;
  if (input.groupName !== undefined) spec.groupName = input.groupName;
  if (input.enabled !== undefined) spec.suspend = !input.enabled;
  const expiration = expirationOf(input, now);
  if (expiration !== undefined) spec.expirationTime = expiration;
  if (input.maxConcurrentRequests !== undefined) {
    spec.maxConcurrentRequests = input.maxConcurrentRequests;
  }
  if (input.modelsAllow !== undefined) {
    spec.models = input.modelsAllow === null ? null : { allow: input.modelsAllow };
  }
  if (input.limits !== undefined) {
    const limits: Json = {};
    for (const [name, value] of Object.entries(input.limits)) {
      if (value !== undefined) limits[name] = value;
    }
    spec.limits = limits;
  }
  if (input.sourceRanges !== undefined) {
    const ranges: Json = {};
    for (const side of ['allow', 'deny'] as const) {
      const list = input.sourceRanges[side];
      if (list !== undefined) ranges[side] = list.length === 0 ? null : list;
    }
    spec.sourceRanges = ranges;
  }
  return spec;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) continue;
    const cleaned = withoutNulls(item);
    if (typeof cleaned === 'object' && cleaned !== null && !Array.isArray(cleaned)) {
      if (Object.keys(cleaned).length === 0) continue;
    }
    out[key] = cleaned;
  }
  return out;
}

/**
 * The spec of a new key; `owner` is the signed-in user (member budgets count the key toward them).
 * An edit never sends `owner`: the console neither changes nor clears it.
 */
export function buildCreateSpec(
  input: CreateKeyInput,
  options: { secretName: string; now: number; owner?: string },
): Json {
  return {
    ...(withoutNulls(specFields(input, options.now)) as Json),
    secretName: options.secretName,
    secretKey: 'apiKey',
    ...(options.owner === undefined || options.owner === '' ? {} : { owner: options.owner }),
  };
}

/** The spec part of an edit (the version it was read at is checked by the route). */
export function buildEditPatch(input: EditKeyInput, now: number): Json {
  return { spec: specFields(input, now) };
}

export { nameFromDisplayName } from './derive-key-name.js';
