/**
 * Why a key can or cannot be used, decided from what the reconciler found. The order of the checks
 * is the order of the `Ready` reasons: key material first (nothing else matters without a usable
 * value), then the owner's switches (suspend, expiry), then the group, then the account.
 */
import type { KeyState } from '../../store/policy-documents.js';
import type { DesiredCondition } from './manage-conditions.js';

export type KeyMaterial =
  /** `generated`: the value was generated in this reconcile (no document can exist under it). */
  | { status: 'Found'; hash: string; hint: string; generated?: boolean }
  | {
      status: 'InvalidKey' | 'SecretConflict' | 'DuplicateKey';
      message: string;
      hash: string | null;
    }
  | { status: 'Pending'; message: string };

export type GroupLookup =
  | { status: 'None' }
  | { status: 'NotFound'; name: string }
  | { status: 'NotPermitted'; name: string; namespace: string }
  | { status: 'Found'; name: string };

export type ReadyReason =
  | 'Active'
  | 'Suspended'
  | 'Expired'
  | 'NoGroup'
  | 'GroupNotFound'
  | 'GroupNotPermitted'
  | 'NoAccount'
  | 'InvalidKey'
  | 'SecretConflict'
  | 'DuplicateKey'
  | 'Pending';

export interface KeyStateInput {
  material: KeyMaterial;
  group: GroupLookup;
  hasAccount: boolean;
  suspended: boolean;
  /** Epoch ms or null. */
  expiresAt: number | null;
  now: number;
}

export interface KeyDecision {
  /** The state written into the key's policy document. */
  policyState: KeyState;
  ready: { reason: ReadyReason; message: string };
  resolvedRefs: DesiredCondition;
}

function refsCondition(input: KeyStateInput): DesiredCondition {
  const refs = (reason: string, message: string): DesiredCondition => ({
    type: 'ResolvedRefs',
    status: 'False',
    reason,
    message,
  });
  const { material, group } = input;
  if (material.status !== 'Found') return refs(material.status, material.message);
  if (group.status === 'None') return refs('NoGroup', 'spec.groupName is not set');
  if (group.status === 'NotFound')
    return refs('GroupNotFound', `Group ${group.name} does not exist`);
  if (group.status === 'NotPermitted') {
    return refs(
      'GroupNotPermitted',
      `Group ${group.name} does not allow keys from namespace ${group.namespace}`,
    );
  }
  if (!input.hasAccount) return refs('NoAccount', 'this namespace has no Account named default');
  return {
    type: 'ResolvedRefs',
    status: 'True',
    reason: 'ResolvedRefs',
    message: 'Secret, Group and Account resolved',
  };
}

function policyState(input: KeyStateInput): KeyState {
  const { material, group } = input;
  if (material.status === 'InvalidKey') return 'InvalidKey';
  if (material.status === 'SecretConflict') return 'SecretConflict';
  if (material.status === 'DuplicateKey') return 'DuplicateKey';
  if (group.status === 'None') return 'NoGroup';
  if (group.status === 'NotFound') return 'GroupNotFound';
  if (group.status === 'NotPermitted') return 'GroupNotPermitted';
  return 'Active';
}

export function decideKeyState(input: KeyStateInput): KeyDecision {
  const resolvedRefs = refsCondition(input);
  const state = policyState(input);
  const expired = input.expiresAt !== null && input.expiresAt <= input.now;
  let ready: KeyDecision['ready'];
  if (input.material.status !== 'Found') {
    ready = { reason: input.material.status, message: input.material.message };
  } else if (input.suspended) {
    ready = { reason: 'Suspended', message: 'the key is suspended (spec.suspend)' };
  } else if (expired) {
    ready = { reason: 'Expired', message: 'the key expired at spec.expirationTime' };
  } else if (resolvedRefs.status === 'False') {
    ready = { reason: resolvedRefs.reason as ReadyReason, message: resolvedRefs.message };
  } else {
    ready = { reason: 'Active', message: 'the key is ready to use' };
  }
  return { policyState: state, ready, resolvedRefs };
}
