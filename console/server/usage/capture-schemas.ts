/**
 * The shapes of one record's page (zod): the request id in its path, and a captured call as the
 * capture route answers it (store/captured-call.ts, read from the ledger). Pure (zod only): the web
 * app infers its types from these.
 */
import { z } from 'zod';

/** A gateway request id as it appears in a record (no slash, bounded). */
export const requestIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/);

export const redactionSchema = z.object({
  /** `anthropic-key`, `openai-key`, `bearer-token`, `aws-access-key`, `private-key`, `env-secret`... */
  kind: z.string(),
  count: z.number(),
});
export type Redaction = z.output<typeof redactionSchema>;

export const capturedBodySchema = z.object({
  /** The body as stored: redacted, cut to the key's `maxBytes`. */
  text: z.string(),
  /** Its size in bytes before the cut. */
  bytes: z.number(),
  truncated: z.boolean(),
  contentType: z.string(),
  redactions: z.array(redactionSchema),
});
export type CapturedBody = z.output<typeof capturedBodySchema>;

export const capturedCallSchema = z.object({
  requestId: z.string(),
  keyName: z.string(),
  group: z.string(),
  platform: z.string(),
  path: z.string(),
  model: z.string().nullable(),
  streamed: z.boolean(),
  /** ISO time of the request. */
  at: z.string(),
  /** ISO time the ledger drops the capture. */
  expiresAt: z.string(),
  /** Null: the request body was not captured. */
  request: capturedBodySchema.nullable(),
  /** Null: the response was not captured (or the call had no reply body). */
  response: capturedBodySchema.nullable(),
});
export type CapturedCallView = z.output<typeof capturedCallSchema>;
