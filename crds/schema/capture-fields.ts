/**
 * `spec.capture` of a Group and of an ApiKey (docs/captures.md): whether the bodies of their calls
 * are kept, redacted, in the ledger. No field has a server-side default: a key's field set
 * overrides its group's field, one by one, and what neither sets takes the code default.
 */
import { boolean, integer, object } from './schema-builder.js';

/** The code defaults of the capture fields (operator/reconcile/project-capture-settings.ts). */
export const CAPTURE_DEFAULTS = {
  requests: false,
  responses: false,
  maxBytes: 65_536,
  retentionDays: 7,
} as const;

export const CAPTURE_MAX_BYTES = { minimum: 1024, maximum: 1_048_576 } as const;
export const CAPTURE_RETENTION_DAYS = { minimum: 1, maximum: 90 } as const;

export function captureSettings(description: string) {
  return object(
    {
      requests: boolean({
        description:
          'Keep the request body the caller sent (redacted). Absent = the group setting, else false.',
      }),
      responses: boolean({
        description:
          'Keep the reply the caller received (redacted; a stream as the reassembled message). Absent = the group setting, else false.',
      }),
      maxBytes: integer({
        description:
          'Each kept body is cut to this many bytes, after redaction. Absent = the group setting, else 65536.',
        ...CAPTURE_MAX_BYTES,
      }),
      retentionDays: integer({
        description: 'Days the ledger keeps a captured call. Absent = the group setting, else 7.',
        ...CAPTURE_RETENTION_DAYS,
      }),
    },
    { description },
  );
}
