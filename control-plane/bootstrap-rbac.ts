/**
 * The roles and bindings the control plane always has, like the API server's bootstrap policy:
 * `cluster-admin` (bound to `system:masters`), `system:discovery`, `system:basic-user` and
 * `system:public-info-viewer` (bound to every authenticated user), and the Tollgate persona roles
 * from crds/rbac. At each start a missing object is created and, unless it is annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"`, missing rules and subjects are added back.
 */
import { personaRoles } from '../crds/rbac/persona-roles.js';
import type { JsonObject, JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, jsonEqual, objectName } from './kube-object.js';
import type { ObjectStore } from './object-store.js';
import { RBAC_GROUP } from './rbac-kinds.js';
import type { ResourceKind } from './resource-kind.js';

const autoupdate = 'rbac.authorization.kubernetes.io/autoupdate';
const apiVersion = `${RBAC_GROUP}/v1`;
const defaults = { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } };

function clusterRole(name: string, rules: JsonObject[]): KubeObject {
  return {
    apiVersion,
    kind: 'ClusterRole',
    metadata: { name, ...defaults, annotations: { [autoupdate]: 'true' } },
    rules,
  };
}

function clusterRoleBinding(name: string, groups: string[]): KubeObject {
  return {
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name, ...defaults, annotations: { [autoupdate]: 'true' } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name },
    subjects: groups.map((group) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name: group })),
  };
}

const discoveryUrls = [
  '/api',
  '/api/*',
  '/apis',
  '/apis/*',
  '/healthz',
  '/livez',
  '/openapi',
  '/openapi/*',
  '/readyz',
  '/version',
  '/version/',
];

function personaObjects(): KubeObject[] {
  return personaRoles.map((role) => {
    const object = structuredClone(role) as unknown as KubeObject;
    const annotations = isJsonObject(object.metadata.annotations)
      ? object.metadata.annotations
      : {};
    object.metadata.annotations = { ...annotations, [autoupdate]: 'true' };
    return object;
  });
}

export function bootstrapObjects(): KubeObject[] {
  return [
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('system:discovery', [{ nonResourceURLs: discoveryUrls, verbs: ['get'] }]),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['selfsubjectreviews'],
        verbs: ['create'],
      },
    ]),
    clusterRole('system:public-info-viewer', [
      {
        nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
        verbs: ['get'],
      },
    ]),
    ...personaObjects(),
    clusterRoleBinding('cluster-admin', ['system:masters']),
    clusterRoleBinding('system:discovery', ['system:authenticated']),
    clusterRoleBinding('system:basic-user', ['system:authenticated']),
    clusterRoleBinding('system:public-info-viewer', [
      'system:authenticated',
      'system:unauthenticated',
    ]),
  ];
}

/** Items of `wanted` that `current` lacks (compared as whole JSON values). */
function missingItems(current: JsonValue | undefined, wanted: JsonValue | undefined): JsonValue[] {
  const have = Array.isArray(current) ? current : [];
  return (Array.isArray(wanted) ? wanted : []).filter(
    (item) => !have.some((existing) => jsonEqual(existing, item)),
  );
}

export function bootstrapRbac(store: ObjectStore, kinds: readonly ResourceKind[]): void {
  const options = { dryRun: false, strictFields: false };
  for (const object of bootstrapObjects()) {
    const kind = kinds.find((item) => item.group === RBAC_GROUP && item.kind === object.kind);
    if (kind === undefined) continue;
    const ref = { namespace: undefined, name: objectName(object) };
    if (!store.exists(kind, ref)) {
      store.create(kind, { namespace: undefined, body: object, options });
      continue;
    }
    const current = store.get(kind, ref);
    const annotations = isJsonObject(current.metadata.annotations)
      ? current.metadata.annotations
      : {};
    if (annotations[autoupdate] === 'false') continue;
    const field = object.kind === 'ClusterRole' ? 'rules' : 'subjects';
    const missing = missingItems(current[field], object[field]);
    if (missing.length === 0) continue;
    const existing = current[field];
    current[field] = [...(Array.isArray(existing) ? existing : []), ...missing];
    store.update(kind, { ref, body: current, status: false, options });
  }
}
