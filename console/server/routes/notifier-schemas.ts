/**
 * The notifier API's shapes (zod): a Notifier or ClusterNotifier as the console shows it (the
 * admin object shape: spec and status, with its delivery history), and what a create or an edit
 * carries: the spec and, write-only, the Secret value (the webhook's signing secret or the Slack
 * incoming-webhook URL), which the console writes to a new Secret and never returns.
 * Pure (zod only): the web app infers its types from these.
 */
import { z } from 'zod';
import { versionFields } from './admin-schemas.js';

export { adminObjectSchema as notifierViewSchema } from './admin-schemas.js';
export { adminListSchema as notifierListSchema } from './admin-schemas.js';

/** The Secret value sent with a create or an edit (absent on an edit: the Secret stays). */
const secretValue = z.string().min(1).max(4096).optional();

export const createNotifierSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
    .max(63),
  spec: z.record(z.string(), z.unknown()),
  secretValue,
});
export type CreateNotifierInput = z.output<typeof createNotifierSchema>;

export const editNotifierSchema = z.strictObject({
  spec: z.record(z.string(), z.unknown()),
  secretValue,
  ...versionFields,
});
export type EditNotifierInput = z.output<typeof editNotifierSchema>;
