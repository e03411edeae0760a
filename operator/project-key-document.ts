/**
 * An ApiKey's decision and policy document from the informer caches (its group, namespace and
 * account) and its key material: what the reconcile writes and the bulk reload writes for every key.
 * Synchronous: reads only the caches.
 */
import type { ApiKey } from '../crds/schema/resources.js';
import type { KeyPolicy } from '../store/policy-documents.js';
import type { OperatorContext } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import {
  decideKeyState,
  type GroupLookup,
  type KeyDecision,
  type KeyMaterial,
} from './reconcile/decide-key-state.js';
import { matchLabelSelector } from './reconcile/match-label-selector.js';
import { parseExpiration, projectKeyPolicy } from './reconcile/project-key-policy.js';
import { readSubscribedPlan } from './reconcile-account.js';
import { projectKeyBudget } from './reconcile/project-key-budget.js';

function lookupGroup(context: OperatorContext, apiKey: ApiKey): GroupLookup {
  const name = apiKey.spec.groupName;
  if (name === undefined) return { status: 'None' };
  const group = readResourceOrNull(context, 'Group', { name });
  if (group === null || group.metadata.deletionTimestamp !== undefined) {
    return { status: 'NotFound', name };
  }
  const allowed = group.spec.allowedNamespaces ?? { from: 'All' };
  const namespace = apiKey.metadata.namespace ?? '';
  if (allowed.from === 'Selector') {
    const labels = context.cache.get('Namespace', namespace)?.metadata.labels ?? {};
    if (!matchLabelSelector(allowed.selector ?? {}, labels)) {
      return { status: 'NotPermitted', name, namespace };
    }
  }
  return { status: 'Found', name };
}

export interface KeyDocument {
  decision: KeyDecision;
  expiresAt: number | null;
  /** The hash the document is stored under; null when the key has no document to write. */
  hash: string | null;
  policy: KeyPolicy | null;
}

export function projectKeyDocument(
  context: OperatorContext,
  input: { apiKey: ApiKey; material: KeyMaterial; now: number },
): KeyDocument {
  const { apiKey, material } = input;
  const expiresAt = parseExpiration(apiKey);
  const decision = decideKeyState({
    material,
    group: lookupGroup(context, apiKey),
    hasAccount:
      context.cache.get('Account', 'default', apiKey.metadata.namespace ?? '') !== undefined,
    suspended: apiKey.spec.suspend ?? false,
    expiresAt,
    now: input.now,
  });
  // Invalid values get a document too: it refuses them with InvalidKey.
  const writesPolicy = material.status === 'Found' || material.status === 'InvalidKey';
  if (!writesPolicy || material.hash === null) {
    return { decision, expiresAt, hash: null, policy: null };
  }
  const group =
    apiKey.spec.groupName === undefined
      ? null
      : readResourceOrNull(context, 'Group', { name: apiKey.spec.groupName });
  const account = readResourceOrNull(context, 'Account', {
    name: 'default',
    namespace: apiKey.metadata.namespace ?? '',
  });
  const plan = account === null ? null : readSubscribedPlan(context, account);
  return {
    decision,
    expiresAt,
    hash: material.hash,
    policy: projectKeyPolicy({
      apiKey,
      state: decision.policyState,
      group,
      budget: account === null ? null : projectKeyBudget(account, plan),
    }),
  };
}
