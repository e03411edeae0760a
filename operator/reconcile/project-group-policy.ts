/** Group -> GroupPolicy, the group part embedded in each key document, and the Group's conditions. */
import type { Group, Platform } from '../../crds/schema/resources.js';
import type { GroupPolicy, KeyPolicy, UpstreamRef } from '../../store/policy-documents.js';
import type { DesiredCondition } from './manage-conditions.js';
import { withDigest } from './compute-digest.js';
import { parseMultiplier } from './parse-multiplier.js';
import { projectPricing } from './project-group-pricing.js';

export function multiplierText(group: Group): string {
  return String(group.spec.rateMultiplier ?? 1);
}

function upstreamRefs(group: Group): UpstreamRef[] {
  return (group.spec.upstreamRefs ?? []).map((ref) => ({
    name: ref.name,
    weight: ref.weight ?? 1,
    priority: ref.priority ?? 0,
  }));
}

export function projectGroupPolicy(group: Group): GroupPolicy {
  return withDigest({
    name: group.metadata.name,
    platform: group.spec.platform,
    multiplierText: multiplierText(group),
    upstreams: upstreamRefs(group),
  });
}

export function projectGroupForKey(group: Group): NonNullable<KeyPolicy['group']> {
  return {
    name: group.metadata.name,
    platform: group.spec.platform,
    multiplier: parseMultiplier(group.spec.rateMultiplier ?? 1),
    multiplierText: multiplierText(group),
    upstreams: upstreamRefs(group),
    modelsAllow: group.spec.models?.allow ?? null,
    ...projectPricing(group.spec.pricing),
    ...projectSessionAffinity(group),
    ...projectStreamTimeouts(group),
  };
}

/** Only the timeouts a Group sets are added, so other key documents keep their digest. */
function projectStreamTimeouts(group: Group): {
  firstOutputTimeoutMs?: number;
  streamIdleTimeoutMs?: number;
} {
  const { firstOutputTimeoutSeconds: firstOutput, streamIdleTimeoutSeconds: idle } = group.spec;
  return {
    ...(firstOutput === undefined ? {} : { firstOutputTimeoutMs: firstOutput * 1000 }),
    ...(idle === undefined ? {} : { streamIdleTimeoutMs: idle * 1000 }),
  };
}

/** Only a Group that sets `sessionAffinity` adds the field, so other key documents keep their digest. */
function projectSessionAffinity(group: Group): { sessionTtlMs?: number } {
  const affinity = group.spec.sessionAffinity;
  if (affinity === undefined) return {};
  return { sessionTtlMs: affinity.mode === 'None' ? 0 : (affinity.ttlSeconds ?? 3600) * 1000 };
}

/** `ResolvedRefs` of a Group: every upstreamRef names an existing Upstream of the same platform. */
export function projectGroupRefsCondition(
  group: Group,
  upstreamPlatforms: ReadonlyMap<string, Platform>,
): DesiredCondition {
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const ref of group.spec.upstreamRefs ?? []) {
    const platform = upstreamPlatforms.get(ref.name);
    if (platform === undefined) missing.push(ref.name);
    else if (platform !== group.spec.platform) mismatched.push(`${ref.name} (${platform})`);
  }
  if (mismatched.length > 0) {
    return {
      type: 'ResolvedRefs',
      status: 'False',
      reason: 'PlatformMismatch',
      message: `upstreams of another platform than ${group.spec.platform}: ${mismatched.join(', ')}`,
    };
  }
  if (missing.length > 0) {
    return {
      type: 'ResolvedRefs',
      status: 'False',
      reason: 'UpstreamNotFound',
      message: `upstreams not found: ${missing.join(', ')}`,
    };
  }
  return {
    type: 'ResolvedRefs',
    status: 'True',
    reason: 'ResolvedRefs',
    message: 'all upstreams resolved',
  };
}
