/**
 * The administration calls (Groups, Upstreams, Accounts under /admin) and what the signed-in user
 * may do (/me/access, answered by Kubernetes RBAC as the user).
 */
import { callApi, segment } from './console-api.js';

export type AdminKind = 'groups' | 'upstreams' | 'accounts';

export interface AdminObject {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  /** Bumped by spec changes only (not by the operator's status writes). */
  generation?: number;
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface Verbs {
  list: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
}

export interface Access {
  /** May change Groups, Upstreams or Accounts. */
  administer: boolean;
  groups: Verbs;
  upstreams: Verbs;
  accounts: Verbs;
  /** The asked namespace's ApiKeys; null when no namespace was asked for. */
  keys: Verbs | null;
  namespace: string | null;
}

/** Write-only credential values of an Upstream (stored in its Secret, never read back). */
export interface CredentialValues {
  apiKeyValue?: string;
  googleOAuthSecret?: { refreshToken: string; clientSecret: string };
}

export interface AdminWrite extends CredentialValues {
  spec: Record<string, unknown>;
  /** The generation the form was filled from: refused (409) if the spec changed since. */
  generation?: number;
}

export const adminApi = {
  access: (namespace?: string) =>
    callApi<Access>(
      namespace === undefined ? '/me/access' : `/me/access?namespace=${segment(namespace)}`,
    ),
  list: (kind: AdminKind) => callApi<{ items: AdminObject[] }>(`/admin/${kind}`),
  /** Groups and Upstreams: POST with the name; Accounts: PUT on the namespace. */
  create: (input: { kind: AdminKind; name: string; body: AdminWrite; csrfToken: string }) =>
    input.kind === 'accounts'
      ? callApi<AdminObject>(`/admin/accounts/${segment(input.name)}`, {
          method: 'PUT',
          body: input.body,
          csrfToken: input.csrfToken,
        })
      : callApi<AdminObject>(`/admin/${input.kind}`, {
          method: 'POST',
          body: { name: input.name, ...input.body },
          csrfToken: input.csrfToken,
        }),
  update: (input: { kind: AdminKind; name: string; body: AdminWrite; csrfToken: string }) =>
    callApi<AdminObject>(`/admin/${input.kind}/${segment(input.name)}`, {
      method: 'PUT',
      body: input.body,
      csrfToken: input.csrfToken,
    }),
  remove: (input: { kind: AdminKind; name: string; csrfToken: string }) =>
    callApi<unknown>(`/admin/${input.kind}/${segment(input.name)}`, {
      method: 'DELETE',
      csrfToken: input.csrfToken,
    }),
};
