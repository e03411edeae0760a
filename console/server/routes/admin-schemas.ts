/**
 * The administration API's shapes (zod): a Group, Upstream or Account as the console shows it, and
 * what an edit carries (the spec, the version read, an Upstream's write-only credential values).
 * Pure (zod only): the web app infers its types from these.
 */
import { z } from 'zod';

export const adminObjectSchema = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  uid: z.string(),
  resourceVersion: z.string(),
  /** Bumped by spec changes only: what an edit sends back. */
  generation: z.number().optional(),
  spec: z.record(z.string(), z.unknown()),
  status: z.record(z.string(), z.unknown()).optional(),
});
export type AdminObject = z.output<typeof adminObjectSchema>;

export const adminListSchema = z.object({ items: z.array(adminObjectSchema) });

/** What an edit may carry to be refused (409) when the object changed since it was read. */
export const versionFields = {
  /** The generation read: refused when the spec changed since (status writes do not count). */
  generation: z.number().int().min(1).optional(),
  /** The exact version read: refused when anything changed since, status included. */
  resourceVersion: z.string().min(1).max(64).optional(),
};

/** Write-only credential values of an Upstream: written to its Secret, never returned. */
export const credentialValues = {
  /** The provider API key (credentials type APIKey). */
  apiKeyValue: z.string().min(1).max(4096).optional(),
  /** The Google OAuth refresh token and client secret (credentials type GoogleOAuth). */
  googleOAuthSecret: z
    .strictObject({
      refreshToken: z.string().min(1).max(4096),
      clientSecret: z.string().min(1).max(4096),
    })
    .optional(),
};
export const credentialValuesSchema = z.strictObject(credentialValues);

/** An Upstream's replacement (PUT): the spec, the version read, the credential values sent. */
export const upstreamUpdateSchema = z.strictObject({
  spec: z.record(z.string(), z.unknown()),
  ...versionFields,
  ...credentialValues,
});
