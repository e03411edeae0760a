/**
 * Pure: RBAC rules split into single grants (one verb on one resource of one API group, in one
 * namespace or cluster-wide, optionally for one name), and which grants a recorded request used.
 * A request carrying Impersonate-* headers uses the requester's `impersonate` grants only; the
 * rest of it is authorized as the impersonated person.
 */
import {
  requestAttributes,
  type RequestAttributes,
} from '../../../control-plane/request-attributes.js';
import type { RecordedRequest } from './record-api-requests.js';
import type { KubernetesObject } from './render-chart.js';

export interface Grant {
  role: string;
  namespace: string | undefined;
  verb: string;
  apiGroup: string;
  resource: string;
  resourceName: string | undefined;
}

interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export function grantKey(grant: Grant): string {
  const where = grant.namespace === undefined ? 'cluster-wide' : `in ${grant.namespace}`;
  const name = grant.resourceName === undefined ? '' : ` named ${grant.resourceName}`;
  const group = grant.apiGroup === '' ? 'core' : grant.apiGroup;
  return `${grant.verb} ${group}/${grant.resource}${name} ${where} (${grant.role})`;
}

/** The grants of a Role (namespaced) or ClusterRole bound cluster-wide. */
export function grantsOf(role: KubernetesObject): Grant[] {
  const namespace = role.kind === 'Role' ? role.metadata.namespace : undefined;
  const grants: Grant[] = [];
  for (const rule of (role.rules ?? []) as Rule[]) {
    const names = rule.resourceNames?.length ? rule.resourceNames : [undefined];
    for (const verb of rule.verbs ?? []) {
      for (const apiGroup of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          for (const resourceName of names) {
            grants.push({
              role: role.metadata.name,
              namespace,
              verb,
              apiGroup,
              resource,
              resourceName,
            });
          }
        }
      }
    }
  }
  return grants;
}

/** What RBAC checks for a recorded request of the component's own identity. */
export function attributesOf(request: RecordedRequest): RequestAttributes[] {
  if (request.impersonateUser !== undefined) {
    const impersonation = (resource: string, name: string): RequestAttributes => ({
      resourceRequest: true,
      verb: 'impersonate',
      apiGroup: '',
      apiVersion: 'v1',
      namespace: '',
      resource,
      subresource: '',
      name,
    });
    return [
      impersonation('users', request.impersonateUser),
      ...request.impersonateGroups.map((group) => impersonation('groups', group)),
    ];
  }
  const url = new URL(request.url, 'http://api');
  return [
    requestAttributes({ method: request.method, pathname: url.pathname, query: url.searchParams }),
  ];
}

export function grantAllows(grant: Grant, attributes: RequestAttributes): boolean {
  if (!attributes.resourceRequest) return false;
  const resource =
    attributes.subresource === ''
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  return (
    (grant.verb === '*' || grant.verb === attributes.verb) &&
    (grant.apiGroup === '*' || grant.apiGroup === attributes.apiGroup) &&
    (grant.resource === '*' || grant.resource === resource) &&
    (grant.namespace === undefined || grant.namespace === attributes.namespace) &&
    (grant.resourceName === undefined || grant.resourceName === attributes.name)
  );
}
