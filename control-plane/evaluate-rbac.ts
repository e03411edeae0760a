/**
 * Pure: Kubernetes RBAC evaluation (`plugin/pkg/auth/authorizer/rbac` and
 * `pkg/apis/rbac/v1/evaluation_helpers.go`): which rules apply to a user in a namespace (every
 * ClusterRoleBinding, then the RoleBindings of the namespace), and whether one of them allows the
 * request. Rules only ever allow; a binding whose role is missing adds an error to the reason.
 */
import type { JsonObject, JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, objectName, objectNamespace, stringField } from './kube-object.js';
import type { RequestAttributes, UserInfo } from './request-attributes.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** Read access to the stored RBAC objects. */
export interface RbacObjects {
  clusterRoleBindings(): KubeObject[];
  roleBindings(namespace: string): KubeObject[];
  clusterRole(name: string): KubeObject | undefined;
  role(namespace: string, name: string): KubeObject | undefined;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

export function rulesOf(role: KubeObject): PolicyRule[] {
  const rules = Array.isArray(role.rules) ? role.rules : [];
  return rules.filter(isJsonObject).map((rule) => ({
    verbs: strings(rule.verbs),
    apiGroups: strings(rule.apiGroups),
    resources: strings(rule.resources),
    resourceNames: strings(rule.resourceNames),
    nonResourceURLs: strings(rule.nonResourceURLs),
  }));
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((item) => item === '*' || item === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((item) => item === '*' || item === group);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return rule.resources.some(
    (item) =>
      item === '*' ||
      item === combined ||
      (subresource !== '' &&
        item.length === subresource.length + 2 &&
        item.startsWith('*/') &&
        item.endsWith(subresource)),
  );
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return rule.nonResourceURLs.some(
    (item) =>
      item === '*' ||
      item === path ||
      (item.endsWith('*') && path.startsWith(item.replace(/\*+$/, ''))),
  );
}

export function ruleAllows(attributes: RequestAttributes, rule: PolicyRule): boolean {
  if (!attributes.resourceRequest) {
    return verbMatches(rule, attributes.verb) && nonResourceUrlMatches(rule, attributes.path);
  }
  const combined =
    attributes.subresource === ''
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  return (
    verbMatches(rule, attributes.verb) &&
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}

/** `system:serviceaccount:<namespace>:<name>`, the user name of a service account. */
export function serviceAccountUser(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function appliesToUser(user: UserInfo, subject: JsonObject, namespace: string): boolean {
  const name = stringField(subject, 'name') ?? '';
  const kind = stringField(subject, 'kind');
  if (kind === 'User') return user.name === name;
  if (kind === 'Group') return user.groups.includes(name);
  if (kind !== 'ServiceAccount') return false;
  // A subject without a namespace means the namespace being evaluated.
  const accountNamespace = stringField(subject, 'namespace') ?? namespace;
  return accountNamespace !== '' && user.name === serviceAccountUser(accountNamespace, name);
}

function describeSubject(subject: JsonObject, bindingNamespace: string): string {
  const name = stringField(subject, 'name') ?? '';
  const kind = stringField(subject, 'kind') ?? '';
  if (kind === 'ServiceAccount') {
    return `${kind} "${name}/${stringField(subject, 'namespace') ?? bindingNamespace}"`;
  }
  return `${kind} "${name}"`;
}

interface RoleRef {
  kind: string;
  name: string;
}

function roleRefOf(binding: KubeObject): RoleRef {
  const ref = isJsonObject(binding.roleRef) ? binding.roleRef : {};
  return { kind: stringField(ref, 'kind') ?? '', name: stringField(ref, 'name') ?? '' };
}

/** The rules a role reference names, or the error the API server reports when it is missing. */
export function roleReferenceRules(
  objects: RbacObjects,
  where: { ref: RoleRef; namespace: string },
): PolicyRule[] | string {
  const { ref, namespace } = where;
  if (ref.kind === 'ClusterRole') {
    const role = objects.clusterRole(ref.name);
    return role === undefined
      ? `clusterrole.rbac.authorization.k8s.io "${ref.name}" not found`
      : rulesOf(role);
  }
  if (ref.kind === 'Role') {
    const role = objects.role(namespace, ref.name);
    return role === undefined
      ? `role.rbac.authorization.k8s.io "${ref.name}" not found`
      : rulesOf(role);
  }
  return `unsupported role reference kind: "${ref.kind}"`;
}

type Visitor = (visit: { source: string; rule: PolicyRule } | { error: string }) => boolean;

function visitBinding(
  objects: RbacObjects,
  binding: KubeObject,
  where: { user: UserInfo; namespace: string; visitor: Visitor },
): boolean {
  const subjects = (Array.isArray(binding.subjects) ? binding.subjects : []).filter(isJsonObject);
  const subject = subjects.find((item) => appliesToUser(where.user, item, where.namespace));
  if (subject === undefined) return true;
  const ref = roleRefOf(binding);
  const rules = roleReferenceRules(objects, { ref, namespace: where.namespace });
  if (typeof rules === 'string') return where.visitor({ error: rules });
  const bindingNamespace = objectNamespace(binding);
  const source =
    bindingNamespace === undefined
      ? `ClusterRoleBinding "${objectName(binding)}" of ${ref.kind} "${ref.name}" to ${describeSubject(subject, '')}`
      : `RoleBinding "${objectName(binding)}/${bindingNamespace}" of ${ref.kind} "${ref.name}" to ${describeSubject(subject, bindingNamespace)}`;
  for (const rule of rules) if (!where.visitor({ source, rule })) return false;
  return true;
}

/** `VisitRulesFor`: every ClusterRoleBinding first, then the RoleBindings of `namespace`. */
export function visitRulesFor(
  objects: RbacObjects,
  where: { user: UserInfo; namespace: string },
  visitor: Visitor,
): void {
  for (const binding of objects.clusterRoleBindings()) {
    if (!visitBinding(objects, binding, { ...where, namespace: '', visitor })) return;
  }
  if (where.namespace === '') return;
  for (const binding of objects.roleBindings(where.namespace)) {
    if (!visitBinding(objects, binding, { ...where, visitor })) return;
  }
}

export function authorizeRbac(
  objects: RbacObjects,
  request: { user: UserInfo; attributes: RequestAttributes },
): Decision {
  const namespace = request.attributes.resourceRequest ? request.attributes.namespace : '';
  let reason = '';
  const errors: string[] = [];
  visitRulesFor(objects, { user: request.user, namespace }, (visit) => {
    if ('error' in visit) {
      errors.push(visit.error);
      return true;
    }
    if (!ruleAllows(request.attributes, visit.rule)) return true;
    reason = `RBAC: allowed by ${visit.source}`;
    return false;
  });
  if (reason !== '') return { allowed: true, reason };
  const aggregate = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
  return { allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${aggregate}` };
}

/** `RulesFor`: every rule that applies to the user in the namespace, and resolution errors. */
export function rulesFor(
  objects: RbacObjects,
  where: { user: UserInfo; namespace: string },
): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(objects, where, (visit) => {
    if ('error' in visit) errors.push(visit.error);
    else rules.push(visit.rule);
    return true;
  });
  return { rules, errors };
}
