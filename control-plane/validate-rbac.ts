/**
 * Pure: what the API server does to a Role, ClusterRole, RoleBinding or ClusterRoleBinding on write:
 * drops unknown fields, defaults the subjects' apiGroup, and validates with its messages
 * (`pkg/apis/rbac/validation`), including the immutable `roleRef`.
 */
import type { StatusCause } from './api-errors.js';
import type { JsonObject, JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, jsonEqual, textOf } from './kube-object.js';
import { RBAC_GROUP } from './rbac-kinds.js';

const ruleFields = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'];

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

function goList(values: readonly string[]): string {
  return `[]string{${values.map((value) => JSON.stringify(value)).join(', ')}}`;
}

/** `path.IsValidPathSegmentName`: role and binding names may hold `:` (`system:discovery`). */
export function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const problems: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) problems.push(`may not contain '${illegal}'`);
  }
  return problems;
}

function normaliseRule(rule: JsonValue): JsonObject {
  const out: JsonObject = {};
  if (!isJsonObject(rule)) return out;
  for (const field of ruleFields) {
    const values = stringList(rule[field]);
    if (values.length > 0) out[field] = values;
  }
  return out;
}

function normaliseSubject(subject: JsonValue): JsonObject {
  if (!isJsonObject(subject)) return {};
  const out: JsonObject = {};
  for (const field of ['kind', 'apiGroup', 'name', 'namespace']) {
    const value = subject[field];
    if (typeof value === 'string' && value !== '') out[field] = value;
  }
  // SetDefaults_Subject: User and Group subjects belong to the RBAC API group.
  if (out.apiGroup === undefined && (out.kind === 'User' || out.kind === 'Group')) {
    out.apiGroup = RBAC_GROUP;
  }
  return out;
}

/** Keeps the fields the RBAC types have; the API server drops the rest when it decodes. */
export function normaliseRbacObject(object: KubeObject): KubeObject {
  const out: KubeObject = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: object.metadata,
  };
  if (object.kind === 'Role' || object.kind === 'ClusterRole') {
    if (Array.isArray(object.rules)) out.rules = object.rules.map(normaliseRule);
    if (object.kind === 'ClusterRole' && isJsonObject(object.aggregationRule)) {
      out.aggregationRule = object.aggregationRule;
    }
    return out;
  }
  if (Array.isArray(object.subjects)) out.subjects = object.subjects.map(normaliseSubject);
  const ref = isJsonObject(object.roleRef) ? object.roleRef : {};
  out.roleRef = {
    apiGroup: typeof ref.apiGroup === 'string' ? ref.apiGroup : '',
    kind: typeof ref.kind === 'string' ? ref.kind : '',
    name: typeof ref.name === 'string' ? ref.name : '',
  };
  return out;
}

function ruleCauses(rule: JsonObject, where: { path: string; namespaced: boolean }): StatusCause[] {
  const causes: StatusCause[] = [];
  const required = (field: string, message: string): void => {
    causes.push({
      reason: 'FieldValueRequired',
      message: `Required value: ${message}`,
      field: `${where.path}.${field}`,
    });
  };
  const urls = stringList(rule.nonResourceURLs);
  if (stringList(rule.verbs).length === 0)
    required('verbs', 'verbs must contain at least one value');
  if (urls.length > 0) {
    const invalidUrls = (message: string): void => {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${goList(urls)}: ${message}`,
        field: `${where.path}.nonResourceURLs`,
      });
    };
    if (where.namespaced) invalidUrls('namespaced rules cannot apply to non-resource URLs');
    const resourceFields = ['apiGroups', 'resources', 'resourceNames'];
    if (resourceFields.some((field) => stringList(rule[field]).length > 0)) {
      invalidUrls('rules cannot apply to both regular resources and non-resource URLs');
    }
    return causes;
  }
  if (stringList(rule.apiGroups).length === 0) {
    required('apiGroups', 'resource rules must supply at least one api group');
  }
  const resources = stringList(rule.resources);
  if (resources.length === 0)
    required('resources', 'resource rules must supply at least one resource');
  if (stringList(rule.resourceNames).length > 0 && resources.length > 1) {
    required('resourceNames', 'resource names cannot apply to multiple resources');
  }
  return causes;
}

function notSupported(field: string, value: string, supported: readonly string[]): StatusCause {
  return {
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: "${value}": supported values: ${supported.map((item) => `"${item}"`).join(', ')}`,
    field,
  };
}

function subjectCauses(subject: JsonObject, where: { path: string; namespaced: boolean }) {
  const causes: StatusCause[] = [];
  const name = typeof subject.name === 'string' ? subject.name : '';
  const kind = typeof subject.kind === 'string' ? subject.kind : '';
  const apiGroup = typeof subject.apiGroup === 'string' ? subject.apiGroup : '';
  if (name === '') {
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value',
      field: `${where.path}.name`,
    });
  }
  if (kind === 'ServiceAccount') {
    if (apiGroup !== '') causes.push(notSupported(`${where.path}.apiGroup`, apiGroup, ['']));
    if (!where.namespaced && subject.namespace === undefined) {
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: `${where.path}.namespace`,
      });
    }
  } else if (kind === 'User' || kind === 'Group') {
    if (apiGroup !== RBAC_GROUP) {
      causes.push(notSupported(`${where.path}.apiGroup`, apiGroup, [RBAC_GROUP]));
    }
  } else {
    causes.push(notSupported(`${where.path}.kind`, kind, ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

function bindingCauses(object: KubeObject, old: KubeObject | undefined): StatusCause[] {
  const namespaced = object.kind === 'RoleBinding';
  const ref = isJsonObject(object.roleRef) ? object.roleRef : {};
  const causes: StatusCause[] = [];
  if (ref.apiGroup !== RBAC_GROUP) {
    causes.push(notSupported('roleRef.apiGroup', textOf(ref.apiGroup), [RBAC_GROUP]));
  }
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(textOf(ref.kind))) {
    causes.push(notSupported('roleRef.kind', textOf(ref.kind), kinds));
  }
  const refName = textOf(ref.name);
  if (refName === '') {
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'roleRef.name' });
  }
  for (const problem of pathSegmentProblems(refName)) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${refName}": ${problem}`,
      field: 'roleRef.name',
    });
  }
  const subjects = Array.isArray(object.subjects) ? object.subjects : [];
  subjects.forEach((subject, index) => {
    if (isJsonObject(subject)) {
      causes.push(...subjectCauses(subject, { path: `subjects[${index}]`, namespaced }));
    }
  });
  if (old !== undefined && !jsonEqual(old.roleRef, object.roleRef)) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(object.roleRef)}: cannot change roleRef`,
      field: 'roleRef',
    });
  }
  return causes;
}

/** The validation causes of an RBAC object (empty when valid). */
export function validateRbacObject(object: KubeObject, old: KubeObject | undefined): StatusCause[] {
  if (object.kind === 'RoleBinding' || object.kind === 'ClusterRoleBinding') {
    return bindingCauses(object, old);
  }
  const rules = Array.isArray(object.rules) ? object.rules : [];
  return rules.flatMap((rule, index) =>
    isJsonObject(rule)
      ? ruleCauses(rule, { path: `rules[${index}]`, namespaced: object.kind === 'Role' })
      : [],
  );
}
