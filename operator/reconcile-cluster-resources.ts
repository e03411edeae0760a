/** Reconciles Groups and Upstreams (cluster-scoped): their policy documents and status. */
import type { Platform, Upstream } from '../crds/schema/resources.js';
import type { UpstreamPolicy } from '../store/policy-documents.js';
import { sealCredential } from '../store/seal-credential.js';
import type { OperatorContext } from './operator-context.js';
import { decodeSecretData, type SecretObject } from './read-resource.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { recordAvailabilityEvent, upstreamAvailability } from './refresh-upstream-availability.js';
import { mergeConditions, type DesiredCondition } from './reconcile/manage-conditions.js';
import { projectGroupPolicy, projectGroupRefsCondition } from './reconcile/project-group-policy.js';
import { sameStatus } from './reconcile/project-key-status.js';
import {
  projectUpstreamPolicy,
  resolveUpstreamCredential,
  upstreamSecretName,
} from './reconcile/project-upstream-policy.js';
import type { TollgateKind } from './kubernetes-api.js';

interface StatusWrite {
  kind: TollgateKind;
  name: string;
  namespace?: string;
  generation: number;
  current: { conditions?: Parameters<typeof mergeConditions>[0]['current'] } | undefined;
  desired: DesiredCondition[];
  extra?: Record<string, unknown>;
}

/** Patches `/status` when the conditions (or extra fields) differ from the current status. */
export async function writeConditions(context: OperatorContext, write: StatusWrite): Promise<void> {
  const conditions = mergeConditions({
    current: write.current?.conditions,
    desired: write.desired,
    generation: write.generation,
    now: new Date(context.now()),
  });
  const status = {
    ...write.current,
    observedGeneration: write.generation,
    conditions,
    ...write.extra,
  };
  if (sameStatus(status, write.current ?? {})) return;
  await context.api.patchStatus(
    { kind: write.kind, namespace: write.namespace, name: write.name },
    status,
  );
}

function summary(refs: DesiredCondition, programmed: boolean): DesiredCondition[] {
  const ready: DesiredCondition =
    refs.status === 'True'
      ? { type: 'Ready', status: 'True', reason: 'Ready', message: 'in the policy cache' }
      : { type: 'Ready', status: 'False', reason: refs.reason, message: refs.message };
  const programmedCondition: DesiredCondition = programmed
    ? { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'in the policy cache' }
    : { type: 'Programmed', status: 'False', reason: 'NotProgrammed', message: refs.message };
  return [ready, refs, programmedCondition];
}

export async function reconcileGroup(context: OperatorContext, name: string): Promise<void> {
  const group = readResourceOrNull(context, 'Group', { name });
  if (group === null) {
    if ((await context.store.getGroup(name)) !== null) await context.store.deleteGroup(name);
    return;
  }
  const platforms = new Map<string, Platform>();
  for (const object of context.cache.list('Upstream')) {
    const upstream = readResourceOrNull(context, 'Upstream', { name: object.metadata.name });
    if (upstream !== null) platforms.set(upstream.metadata.name, upstream.spec.platform);
  }
  const refs = projectGroupRefsCondition(group, platforms);
  const policy = projectGroupPolicy(group);
  const existing = await context.store.getGroup(name);
  if (existing?.digest !== policy.digest) await context.store.putGroup(policy);
  await writeConditions(context, {
    kind: 'Group',
    name,
    generation: group.metadata.generation,
    current: group.status,
    desired: summary(refs, true),
  });
}

/**
 * The Upstream's policy document (its credential from the Secret in the operator's namespace,
 * sealed) and its ResolvedRefs condition; no document when the credential cannot be read.
 */
export function projectUpstreamDocument(
  context: OperatorContext,
  upstream: Upstream,
): { refs: DesiredCondition; policy: UpstreamPolicy | null } {
  const secret = context.cache.get('Secret', upstreamSecretName(upstream), context.namespace) as
    SecretObject | undefined;
  const credential = resolveUpstreamCredential(
    upstream,
    secret === undefined
      ? undefined
      : { namespace: context.namespace, data: decodeSecretData(secret) },
  );
  if (!credential.ok) return { refs: credential.condition, policy: null };
  const sealed = sealCredential(context.credentialKey, credential.plaintext);
  return {
    refs: {
      type: 'ResolvedRefs',
      status: 'True',
      reason: 'ResolvedRefs',
      message: 'credential found',
    },
    policy: projectUpstreamPolicy(upstream, { plaintext: credential.plaintext, sealed }),
  };
}

export async function reconcileUpstream(context: OperatorContext, name: string): Promise<void> {
  const upstream = readResourceOrNull(context, 'Upstream', { name });
  if (upstream === null) {
    if ((await context.store.getUpstream(name)) !== null) await context.store.deleteUpstream(name);
    return;
  }
  const { refs, policy } = projectUpstreamDocument(context, upstream);
  if (policy !== null) {
    const existing = await context.store.getUpstream(name);
    if (existing?.digest !== policy.digest) await context.store.putUpstream(policy);
  } else if ((await context.store.getUpstream(name)) !== null) {
    await context.store.deleteUpstream(name);
  }
  const programmed = policy !== null;
  const availability = await upstreamAvailability(context, name);
  const hadEnd = upstream.status?.cooldownEndTime !== undefined;
  await writeConditions(context, {
    kind: 'Upstream',
    name,
    generation: upstream.metadata.generation,
    current: upstream.status,
    desired: [...summary(refs, programmed), availability.condition],
    // null removes a cool-down end that is over (merge patch); absent leaves none absent.
    ...(availability.cooldownEndTime === null && !hadEnd
      ? {}
      : { extra: { cooldownEndTime: availability.cooldownEndTime } }),
  });
  await recordAvailabilityEvent(context, upstream, availability);
}
