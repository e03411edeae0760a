/**
 * The kinds of `rbac.authorization.k8s.io/v1` (stored like the other core kinds) and the access
 * reviews of `authorization.k8s.io/v1` and `authentication.k8s.io/v1` (create-only, never stored).
 */
import type { JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, objectField, stringField, textOf } from './kube-object.js';
import type { PrinterColumn, ResourceKind } from './resource-kind.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
export const AUTHENTICATION_GROUP = 'authentication.k8s.io';

const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** Roles print their creation time as RFC 3339, not as an age (the API server's printer). */
const createdAt: PrinterColumn = {
  name: 'Created At',
  type: 'string',
  compute: (object) => stringField(object.metadata, 'creationTimestamp') ?? '',
};

function subjectsOf(object: KubeObject, kind: string): string {
  const subjects = Array.isArray(object.subjects) ? object.subjects : [];
  return subjects
    .filter((subject): subject is Record<string, JsonValue> => isJsonObject(subject))
    .filter((subject) => subject.kind === kind)
    .map((subject) =>
      kind === 'ServiceAccount'
        ? `${textOf(subject.namespace)}/${textOf(subject.name)}`
        : textOf(subject.name),
    )
    .join(', ');
}

const bindingColumns: PrinterColumn[] = [
  {
    name: 'Role',
    type: 'string',
    compute: (object) => {
      const ref = objectField(object, 'roleRef') ?? {};
      return `${stringField(ref, 'kind') ?? ''}/${stringField(ref, 'name') ?? ''}`;
    },
  },
  age,
  { name: 'Users', type: 'string', priority: 1, compute: (o) => subjectsOf(o, 'User') },
  { name: 'Groups', type: 'string', priority: 1, compute: (o) => subjectsOf(o, 'Group') },
  {
    name: 'ServiceAccounts',
    type: 'string',
    priority: 1,
    compute: (o) => subjectsOf(o, 'ServiceAccount'),
  },
];

function rbacKind(
  names: { kind: string; plural: string; singular: string },
  where: { namespaced: boolean; columns: PrinterColumn[] },
): ResourceKind {
  return {
    group: RBAC_GROUP,
    version: 'v1',
    ...names,
    shortNames: [],
    categories: [],
    namespaced: where.namespaced,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: where.columns,
  };
}

function reviewKind(
  names: { group: string; kind: string; plural: string; singular: string },
  namespaced = false,
): ResourceKind {
  return {
    ...names,
    version: 'v1',
    shortNames: [],
    categories: [],
    namespaced,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [],
    verbs: ['create'],
    review: true,
  };
}

export const rbacKinds: ResourceKind[] = [
  rbacKind(
    { kind: 'ClusterRole', plural: 'clusterroles', singular: 'clusterrole' },
    { namespaced: false, columns: [createdAt] },
  ),
  rbacKind(
    { kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', singular: 'clusterrolebinding' },
    { namespaced: false, columns: bindingColumns },
  ),
  rbacKind(
    { kind: 'Role', plural: 'roles', singular: 'role' },
    { namespaced: true, columns: [createdAt] },
  ),
  rbacKind(
    { kind: 'RoleBinding', plural: 'rolebindings', singular: 'rolebinding' },
    { namespaced: true, columns: bindingColumns },
  ),
  reviewKind({
    group: AUTHORIZATION_GROUP,
    kind: 'SubjectAccessReview',
    plural: 'subjectaccessreviews',
    singular: 'subjectaccessreview',
  }),
  reviewKind({
    group: AUTHORIZATION_GROUP,
    kind: 'SelfSubjectAccessReview',
    plural: 'selfsubjectaccessreviews',
    singular: 'selfsubjectaccessreview',
  }),
  reviewKind({
    group: AUTHORIZATION_GROUP,
    kind: 'SelfSubjectRulesReview',
    plural: 'selfsubjectrulesreviews',
    singular: 'selfsubjectrulesreview',
  }),
  reviewKind(
    {
      group: AUTHORIZATION_GROUP,
      kind: 'LocalSubjectAccessReview',
      plural: 'localsubjectaccessreviews',
      singular: 'localsubjectaccessreview',
    },
    true,
  ),
  reviewKind({
    group: AUTHENTICATION_GROUP,
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    singular: 'selfsubjectreview',
  }),
];
