/**
 * The session API's answers (zod): the sign-in methods, the signed-in user, and what RBAC lets the
 * user do. Pure (zod only): the web app infers its types from these.
 */
import { z } from 'zod';

export const authMethodsSchema = z.object({
  local: z.boolean(),
  oidc: z.boolean(),
  /** The identity provider's name for the sign-in button; null without OIDC. */
  oidcName: z.string().nullable(),
});
export type AuthMethods = z.output<typeof authMethodsSchema>;

export const meSchema = z.object({
  username: z.string(),
  groups: z.array(z.string()),
  method: z.enum(['local', 'oidc']),
  csrfToken: z.string(),
  expiresTime: z.string(),
});
export type Me = z.output<typeof meSchema>;

export const verbsSchema = z.object({
  list: z.boolean(),
  create: z.boolean(),
  update: z.boolean(),
  delete: z.boolean(),
});
export type Verbs = z.output<typeof verbsSchema>;

export const accessSchema = z.object({
  /** May change Groups, Upstreams, Plans or Accounts: the console shows "Administration". */
  administer: z.boolean(),
  groups: verbsSchema,
  upstreams: verbsSchema,
  plans: verbsSchema,
  /** Accounts of every namespace (a cluster-wide grant). */
  accounts: verbsSchema,
  /** ApiKeys of the namespace asked for; null when none was asked for. */
  keys: verbsSchema.nullable(),
  namespace: z.string().nullable(),
});
export type Access = z.output<typeof accessSchema>;
