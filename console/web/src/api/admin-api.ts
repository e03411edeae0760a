/**
 * The administration calls (Groups, Upstreams, Plans, Accounts under /admin) and what the signed-in user
 * may do (/me/access, answered by Kubernetes RBAC as the user).
 */
import type { z } from 'zod';
import type { Access, Verbs } from '../../../server/auth/session-schemas.js';
import type {
  adminListSchema,
  AdminObject,
  credentialValuesSchema,
  upstreamUpdateSchema,
} from '../../../server/routes/admin-schemas.js';
import { callApi, segment } from './console-api.js';

export type { Access, AdminObject, Verbs };

export type AdminKind = 'groups' | 'upstreams' | 'plans' | 'accounts';

/** Write-only credential values of an Upstream (stored in its Secret, never read back). */
export type CredentialValues = z.input<typeof credentialValuesSchema>;

/**
 * A spec to write, with the generation the form was filled from (refused, 409, if the spec changed
 * since) and, for an Upstream, its credential values.
 */
export type AdminWrite = z.input<typeof upstreamUpdateSchema>;

export const adminApi = {
  access: (namespace?: string) =>
    callApi<Access>(
      namespace === undefined ? '/me/access' : `/me/access?namespace=${segment(namespace)}`,
    ),
  list: (kind: AdminKind) => callApi<z.output<typeof adminListSchema>>(`/admin/${kind}`),
  /** Groups, Upstreams and Plans: POST with the name; Accounts: PUT on the namespace. */
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
