/**
 * The key checks of admission, in the seed's order: missing or unknown key (401) -> key state
 * (403 no group / 401 invalid) -> group platform versus path (403) -> suspended or expired (403).
 * One policy read per request; everything else here is pure. A key not found is unknown (401) only
 * when the policy cache is whole; while the operator programs it, 503 TG_POLICY_RESTORING.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { KeyPolicy, PolicyReader } from '../../../store/store.js';
import { extractKey, type KeyCarrier } from './extract-key.js';
import { findKeyAfterMiss } from './refuse-missing-policy.js';
import type { CachedKeyPolicies } from './cache-key-policies.js';
import { PLATFORM_PATH_PREFIX, type RouteProfile } from '../request/route-profile.js';

export type KeyGroup = NonNullable<KeyPolicy['group']>;
export type AuthorizedPolicy = KeyPolicy & { group: KeyGroup };
/** What the authorize stage hands on: the key's policy, with its group. */
export type Authorized = AuthorizedPolicy;

export interface AuthorizeDependencies {
  /** The key-policy read of every request (cached in the process: cache-key-policies.ts). */
  store: CachedKeyPolicies;
  /** The store itself, read only after a miss: the generation marker and the key once more. */
  policies: Pick<PolicyReader, 'getKeyPolicy' | 'readPolicyMarker'>;
  /** The key value's lookup hash (`hashKeyValue` under the pepper). */
  hashKey: (value: string) => string;
}

export interface AuthorizeInput {
  profile: RouteProfile;
  carrier: KeyCarrier;
  now: number;
}

/** Pure: the refusal for a known key's policy on a route, or null when the key may go on. */
export function checkKeyPolicy(
  policy: KeyPolicy,
  input: { platforms: readonly Platform[]; now: number },
): GatewayError | null {
  switch (policy.state) {
    case 'Active':
      break;
    case 'NoGroup':
    case 'GroupNotFound':
    case 'GroupNotPermitted':
      return new GatewayError('TG_KEY_NO_GROUP', { detail: `(reason: ${policy.state})` });
    case 'InvalidKey':
    case 'SecretConflict':
    case 'DuplicateKey':
      return new GatewayError('TG_KEY_INVALID', { detail: `(reason: ${policy.state})` });
  }
  const group = policy.group;
  if (group === null) return new GatewayError('TG_KEY_NO_GROUP', { detail: '(reason: NoGroup)' });
  if (!input.platforms.includes(group.platform)) {
    return new GatewayError('TG_PLATFORM_MISMATCH', {
      detail: `This key belongs to a ${group.platform} group; call paths under ${PLATFORM_PATH_PREFIX[group.platform]} instead.`,
    });
  }
  if (policy.suspended) return new GatewayError('TG_KEY_SUSPENDED');
  if (policy.expiresAt !== null && policy.expiresAt <= input.now) {
    return new GatewayError('TG_KEY_EXPIRED');
  }
  return null;
}

/** The policy a request's key may go on with (else its refusal thrown), from a policy read. */
function decide(policy: KeyPolicy, input: AuthorizeInput): AuthorizedPolicy {
  const refusal = checkKeyPolicy(policy, { platforms: input.profile.platforms, now: input.now });
  if (refusal !== null) throw refusal;
  return policy as AuthorizedPolicy;
}

/** The key value's lookup hash; a request with no key is refused here. */
function readKeyHash(dependencies: AuthorizeDependencies, input: AuthorizeInput): string {
  const value = extractKey(input.carrier, input.profile.keySources);
  if (value === null) throw new GatewayError('TG_KEY_MISSING');
  // Any value that extracts is a valid-looking key (chosen values need not look generated).
  return dependencies.hashKey(value);
}

/**
 * The key checks, taken at once when the key's policy is in the cache (`peekKeyPolicy`): the
 * authorized policy, or its refusal thrown. A string (the key's hash) when the policy must be read
 * first: `authorizeKeyHash` then goes on from it, with the same checks.
 */
export function authorizeFromCache(
  dependencies: AuthorizeDependencies,
  input: AuthorizeInput,
): AuthorizedPolicy | string {
  const keyHash = readKeyHash(dependencies, input);
  const cached = dependencies.store.peekKeyPolicy?.(keyHash);
  return cached === undefined ? keyHash : decide(cached, input);
}

/** The decision for a key whose hash is known, reading its policy (cached or from the store). */
export async function authorizeKeyHash(
  dependencies: AuthorizeDependencies,
  input: AuthorizeInput,
  keyHash: string,
): Promise<AuthorizedPolicy> {
  const policy =
    (await dependencies.store.getKeyPolicy(keyHash)) ??
    (await findKeyAfterMiss(dependencies.policies, keyHash));
  return decide(policy, input);
}
