/**
 * Quota resets from the usage stream (store/usage-records.ts `QuotaResetEvent`): parsed, and kept
 * once per (namespace, key, token), so a re-read stream entry changes nothing.
 */
import { z } from 'zod';
import type { QuotaResetEvent } from '../store/usage-records.js';
import type { LedgerQueryable } from './ledger-database.js';

const resetSchema = z.object({
  type: z.literal('quotaReset'),
  namespace: z.string().min(1),
  keyUid: z.string().min(1),
  token: z.string().min(1).max(1000),
  time: z.number().int().min(0).max(253_402_300_799_999),
});

/** The reset in a stream entry's JSON, or null when the entry is not a reset. */
export function parseQuotaReset(value: unknown): QuotaResetEvent | null {
  const parsed = resetSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export async function recordQuotaResets(
  db: LedgerQueryable,
  resets: readonly QuotaResetEvent[],
): Promise<void> {
  if (resets.length === 0) return;
  await db.query(
    `INSERT INTO usage_quota_resets (namespace, key_uid, token, reset_at)
     SELECT namespace, "keyUid", token, timestamptz 'epoch' + time * interval '1 millisecond'
     FROM jsonb_to_recordset($1::jsonb) AS r(namespace text, "keyUid" text, token text, time bigint)
     ON CONFLICT (namespace, key_uid, token) DO NOTHING`,
    [JSON.stringify(resets)],
  );
}
