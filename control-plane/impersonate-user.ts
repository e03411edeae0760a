/**
 * Impersonation (`Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid`,
 * `Impersonate-Extra-<key>`), as the API server's filter: the requester must be allowed the
 * `impersonate` verb on each (`users`, `groups`, `uids`, `userextras/<key>`, or `serviceaccounts`
 * for `system:serviceaccount:<ns>:<name>`), then the request runs as that identity, plus
 * `system:authenticated`.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-errors.js';
import { AUTHENTICATED_GROUP } from './authenticate-request.js';
import { requireAllowed } from './authorize-request.js';
import type { RbacObjects } from './evaluate-rbac.js';
import type { ResourceAttributes, UserInfo } from './request-attributes.js';

const extraPrefix = 'impersonate-extra-';

interface Impersonation {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  name: string;
  namespace: string;
  /** The extra key of a UserExtra. */
  key: string;
}

function values(request: IncomingMessage, header: string): string[] {
  return (request.headersDistinct[header] ?? []).filter((value) => value !== '');
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** `buildImpersonationRequests`: what the headers ask for, in the API server's order. */
function impersonationsOf(request: IncomingMessage): Impersonation[] {
  const asked: Impersonation[] = [];
  const user = values(request, 'impersonate-user')[0];
  if (user !== undefined) {
    const account = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
    asked.push(
      account === null
        ? { kind: 'User', name: user, namespace: '', key: '' }
        : { kind: 'ServiceAccount', name: account[2] ?? '', namespace: account[1] ?? '', key: '' },
    );
  }
  for (const group of values(request, 'impersonate-group')) {
    asked.push({ kind: 'Group', name: group, namespace: '', key: '' });
  }
  for (const header of Object.keys(request.headersDistinct)) {
    if (!header.startsWith(extraPrefix)) continue;
    const key = unescapeExtraKey(header.slice(extraPrefix.length));
    for (const value of values(request, header)) {
      asked.push({ kind: 'UserExtra', name: value, namespace: '', key });
    }
  }
  const uid = values(request, 'impersonate-uid')[0];
  if (uid !== undefined) asked.push({ kind: 'UID', name: uid, namespace: '', key: '' });
  if (asked.length > 0 && user === undefined) {
    const listed = asked.map((item) => `${item.kind} ${item.name}`).join(', ');
    throw new ApiError({
      code: 500,
      reason: 'InternalError',
      message: `Internal error occurred: requested [${listed}] without impersonating a user`,
    });
  }
  return asked;
}

function attributesOf(item: Impersonation): ResourceAttributes {
  const resource = {
    User: 'users',
    ServiceAccount: 'serviceaccounts',
    Group: 'groups',
    UserExtra: 'userextras',
    UID: 'uids',
  }[item.kind];
  return {
    resourceRequest: true,
    verb: 'impersonate',
    apiGroup: item.kind === 'UserExtra' || item.kind === 'UID' ? 'authentication.k8s.io' : '',
    apiVersion: 'v1',
    namespace: item.namespace,
    resource,
    subresource: item.kind === 'UserExtra' ? item.key : '',
    name: item.name,
  };
}

/** The identity the request runs as: the requester, or whom it may and does impersonate. */
export function impersonateUser(
  objects: RbacObjects,
  request: { http: IncomingMessage; requester: UserInfo },
): UserInfo {
  const asked = impersonationsOf(request.http);
  if (asked.length === 0) return request.requester;
  const groupsGiven = asked.some((item) => item.kind === 'Group');
  const user: UserInfo = { name: '', uid: '', groups: [], extra: {} };
  for (const item of asked) {
    requireAllowed(objects, { user: request.requester, attributes: attributesOf(item) });
    if (item.kind === 'User') user.name = item.name;
    if (item.kind === 'ServiceAccount') {
      user.name = `system:serviceaccount:${item.namespace}:${item.name}`;
      if (!groupsGiven) {
        user.groups.push('system:serviceaccounts', `system:serviceaccounts:${item.namespace}`);
      }
    }
    if (item.kind === 'Group') user.groups.push(item.name);
    if (item.kind === 'UserExtra')
      user.extra[item.key] = [...(user.extra[item.key] ?? []), item.name];
    if (item.kind === 'UID') user.uid = item.name;
  }
  const unauthenticated = user.name === 'system:anonymous';
  const marked = user.groups.some((group) =>
    [AUTHENTICATED_GROUP, 'system:unauthenticated'].includes(group),
  );
  if (!unauthenticated && !marked) user.groups.push(AUTHENTICATED_GROUP);
  if (unauthenticated && !marked) user.groups.push('system:unauthenticated');
  return user;
}
