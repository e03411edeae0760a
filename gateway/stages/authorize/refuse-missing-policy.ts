/**
 * A policy the gateway does not find is missing for good only when the policy cache is whole. While
 * the operator programs it (before its first full program, or after the store lost its data) the
 * generation marker is absent, and a call that needs a missing policy is refused with 503
 * `TG_POLICY_RESTORING` and `retry-after: 1` instead of an answer that says the key, the account or
 * the upstream does not exist. The marker is read only after a miss: a found policy costs nothing.
 */
import { GatewayError } from '../../errors/gateway-error.js';
import type { KeyPolicy, PolicyReader } from '../../../store/store.js';

export type PolicyMarkerReader = Pick<PolicyReader, 'readPolicyMarker'>;

/** `missing` when the cache is whole, TG_POLICY_RESTORING while it is being programmed. */
export async function refuseMissingPolicy(
  store: PolicyMarkerReader,
  missing: GatewayError,
): Promise<GatewayError> {
  return (await store.readPolicyMarker()) === null
    ? new GatewayError('TG_POLICY_RESTORING')
    : missing;
}

/**
 * After a key was not found: the marker and the key's document read again, the marker first and in
 * the same write. The operator writes every document before the marker, so once the marker is
 * seen the second read finds the key's document if it has one: a valid key read during the last
 * moments of a program is never told it is unknown.
 */
export async function findKeyAfterMiss(
  store: Pick<PolicyReader, 'readPolicyMarker' | 'getKeyPolicy'>,
  keyHash: string,
): Promise<KeyPolicy> {
  const [marker, policy] = await Promise.all([
    store.readPolicyMarker(),
    store.getKeyPolicy(keyHash),
  ]);
  if (policy !== null) return policy;
  throw new GatewayError(marker === null ? 'TG_POLICY_RESTORING' : 'TG_KEY_UNKNOWN');
}
