/**
 * RBAC's escalation prevention, as the API server's role and binding storage: a user may write a
 * Role or ClusterRole only with permissions it already holds (or the `escalate` verb on it), and
 * may bind a role only if it holds that role's permissions (or the `bind` verb on it).
 * Members of `system:masters` are exempt.
 */
import { ApiError, forbidden } from './api-errors.js';
import { MASTERS_GROUP } from './authenticate-request.js';
import { authorize } from './authorize-request.js';
import type { PolicyRule, RbacObjects } from './evaluate-rbac.js';
import { roleReferenceRules, rulesFor, rulesOf } from './evaluate-rbac.js';
import type { KubeObject } from './kube-object.js';
import { isJsonObject, objectName, stringField } from './kube-object.js';
import { RBAC_GROUP } from './rbac-kinds.js';
import type { UserInfo } from './request-attributes.js';

/** One verb on one group/resource/name, or one verb on one non-resource URL. */
interface SimpleRule {
  verb: string;
  group?: string;
  resource?: string;
  resourceName?: string;
  url?: string;
}

function breakdown(rule: PolicyRule): SimpleRule[] {
  const out: SimpleRule[] = [];
  for (const verb of rule.verbs) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        if (rule.resourceNames.length === 0) out.push({ verb, group, resource });
        for (const resourceName of rule.resourceNames) {
          out.push({ verb, group, resource, resourceName });
        }
      }
    }
    for (const url of rule.nonResourceURLs) out.push({ verb, url });
  }
  return out;
}

function resourceCovered(owner: readonly string[], resource: string): boolean {
  if (owner.includes('*') || owner.includes(resource)) return true;
  const slash = resource.indexOf('/');
  return slash >= 0 && owner.includes(`*/${resource.slice(slash + 1)}`);
}

function urlCovered(owner: readonly string[], url: string): boolean {
  return owner.some(
    (item) =>
      item === '*' || item === url || (item.endsWith('*') && url.startsWith(item.slice(0, -1))),
  );
}

/** `ruleCovers` of component-helpers' RBAC validation, for one simple rule. */
function covers(owner: PolicyRule, rule: SimpleRule): boolean {
  const verb = owner.verbs.includes('*') || owner.verbs.includes(rule.verb);
  if (rule.url !== undefined) {
    return verb && urlCovered(owner.nonResourceURLs, rule.url) && owner.resourceNames.length === 0;
  }
  const group = owner.apiGroups.includes('*') || owner.apiGroups.includes(rule.group ?? '\u0000');
  const resource = resourceCovered(owner.resources, rule.resource ?? '');
  const name =
    owner.resourceNames.length === 0 ||
    (rule.resourceName !== undefined && owner.resourceNames.includes(rule.resourceName));
  return verb && group && resource && name;
}

function goQuoted(values: readonly string[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(' ')}]`;
}

/** `CompactRules` then `CompactString`: the missing rights, one line per resource. */
function describeMissing(missing: readonly SimpleRule[]): string[] {
  const merged = new Map<string, { rule: SimpleRule; verbs: string[] }>();
  for (const rule of missing) {
    const key = JSON.stringify([rule.group, rule.resource, rule.resourceName, rule.url]);
    const entry = merged.get(key) ?? { rule, verbs: [] };
    if (!entry.verbs.includes(rule.verb)) entry.verbs.push(rule.verb);
    merged.set(key, entry);
  }
  const lines = [...merged.values()].map(({ rule, verbs }) => {
    const parts: string[] = [];
    if (rule.group !== undefined) parts.push(`APIGroups:${goQuoted([rule.group])}`);
    if (rule.resource !== undefined) parts.push(`Resources:${goQuoted([rule.resource])}`);
    if (rule.url !== undefined) parts.push(`NonResourceURLs:${goQuoted([rule.url])}`);
    if (rule.resourceName !== undefined) {
      parts.push(`ResourceNames:${goQuoted([rule.resourceName])}`);
    }
    parts.push(`Verbs:${goQuoted(verbs)}`);
    return `{${parts.join(', ')}}`;
  });
  return lines.sort();
}

function confirmNoEscalation(
  objects: RbacObjects,
  request: {
    user: UserInfo;
    namespace: string;
    rules: PolicyRule[];
    target: { resource: string; name: string };
  },
): void {
  const owned = rulesFor(objects, { user: request.user, namespace: request.namespace });
  const missing = request.rules
    .flatMap(breakdown)
    .filter((rule) => !owned.rules.some((owner) => covers(owner, rule)));
  if (missing.length === 0) return;
  let message =
    `user "${request.user.name}" (groups=${goQuoted(request.user.groups)}) is attempting to grant ` +
    `RBAC permissions not currently held:\n${describeMissing(missing).join('\n')}`;
  if (owned.errors.length > 0) message += `; resolution errors: [${owned.errors.join(' ')}]`;
  throw forbidden({ group: RBAC_GROUP, ...request.target }, message);
}

function allowedVerb(
  objects: RbacObjects,
  request: { user: UserInfo; verb: string; namespace: string; resource: string; name: string },
): boolean {
  return authorize(objects, {
    user: request.user,
    attributes: {
      resourceRequest: true,
      verb: request.verb,
      apiGroup: RBAC_GROUP,
      apiVersion: 'v1',
      namespace: request.namespace,
      resource: request.resource,
      subresource: '',
      name: request.name,
    },
  }).allowed;
}

/** Throws 403 when writing `object` (a role or binding) would grant the user more than it holds. */
export function checkRbacEscalation(
  objects: RbacObjects,
  write: { user: UserInfo; namespace: string; object: KubeObject },
): void {
  const { user, namespace, object } = write;
  if (user.groups.includes(MASTERS_GROUP)) return;
  const name = objectName(object);
  if (object.kind === 'Role' || object.kind === 'ClusterRole') {
    const resource = object.kind === 'Role' ? 'roles' : 'clusterroles';
    if (allowedVerb(objects, { user, verb: 'escalate', namespace, resource, name })) return;
    confirmNoEscalation(objects, {
      user,
      namespace,
      rules: rulesOf(object),
      target: { resource, name },
    });
    return;
  }
  const ref = isJsonObject(object.roleRef) ? object.roleRef : {};
  const refKind = stringField(ref, 'kind') ?? '';
  const refName = stringField(ref, 'name') ?? '';
  const refResource = refKind === 'Role' ? 'roles' : 'clusterroles';
  if (
    allowedVerb(objects, { user, verb: 'bind', namespace, resource: refResource, name: refName })
  ) {
    return;
  }
  const rules = roleReferenceRules(objects, { ref: { kind: refKind, name: refName }, namespace });
  if (typeof rules === 'string') {
    throw new ApiError({
      code: 404,
      reason: 'NotFound',
      message: rules,
      details: { name: refName, group: RBAC_GROUP, kind: refResource },
    });
  }
  const resource = object.kind === 'RoleBinding' ? 'rolebindings' : 'clusterrolebindings';
  confirmNoEscalation(objects, { user, namespace, rules, target: { resource, name } });
}
