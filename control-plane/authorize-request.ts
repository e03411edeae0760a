/**
 * The authorizer chain of the local control plane, as kube-apiserver's: members of `system:masters`
 * may do everything, then RBAC over the stored roles and bindings decides. A refusal is the API
 * server's 403 `Status`.
 */
import type { ApiError } from './api-errors.js';
import { forbidden } from './api-errors.js';
import { MASTERS_GROUP } from './authenticate-request.js';
import type { Decision, RbacObjects } from './evaluate-rbac.js';
import { authorizeRbac } from './evaluate-rbac.js';
import type { KubeObject } from './kube-object.js';
import type { ObjectStore } from './object-store.js';
import type { ResourceKind } from './resource-kind.js';
import type { RequestAttributes, UserInfo } from './request-attributes.js';
import { RBAC_GROUP } from './rbac-kinds.js';

const everything = (): boolean => true;

export function storeRbacObjects(store: ObjectStore, kinds: readonly ResourceKind[]): RbacObjects {
  const kind = (name: string): ResourceKind | undefined =>
    kinds.find((item) => item.group === RBAC_GROUP && item.kind === name);
  const list = (name: string, namespace: string | undefined): KubeObject[] => {
    const found = kind(name);
    return found === undefined ? [] : store.list(found, { namespace, match: everything });
  };
  const get = (name: string, ref: { namespace: string | undefined; name: string }) => {
    const found = kind(name);
    return found === undefined || !store.exists(found, ref) ? undefined : store.get(found, ref);
  };
  return {
    clusterRoleBindings: () => list('ClusterRoleBinding', undefined),
    roleBindings: (namespace) => list('RoleBinding', namespace),
    clusterRole: (name) => get('ClusterRole', { namespace: undefined, name }),
    role: (namespace, name) => get('Role', { namespace, name }),
  };
}

export function authorize(
  objects: RbacObjects,
  request: { user: UserInfo; attributes: RequestAttributes },
): Decision {
  if (request.user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: '' };
  return authorizeRbac(objects, request);
}

/** `responsewriters.Forbidden`: the message names the user, verb, resource and scope. */
export function forbiddenError(
  request: { user: UserInfo; attributes: RequestAttributes },
  reason: string,
): ApiError {
  const { user, attributes } = request;
  let message: string;
  if (!attributes.resourceRequest) {
    message = `User "${user.name}" cannot ${attributes.verb} path "${attributes.path}"`;
  } else {
    const resource =
      attributes.subresource === ''
        ? attributes.resource
        : `${attributes.resource}/${attributes.subresource}`;
    const scope =
      attributes.namespace === ''
        ? 'at the cluster scope'
        : `in the namespace "${attributes.namespace}"`;
    message = `User "${user.name}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.apiGroup}" ${scope}`;
  }
  if (reason !== '') message = `${message}: ${reason}`;
  return attributes.resourceRequest
    ? forbidden(
        { group: attributes.apiGroup, resource: attributes.resource, name: attributes.name },
        message,
      )
    : forbidden({ group: '', resource: '', name: '' }, message);
}

/** Authorizes the request or throws the 403. */
export function requireAllowed(
  objects: RbacObjects,
  request: { user: UserInfo; attributes: RequestAttributes },
): void {
  const decision = authorize(objects, request);
  if (!decision.allowed) throw forbiddenError(request, decision.reason);
}
