/** Keeps stream entries that are not valid usage records, so nothing read is silently lost. */
import type { LedgerDatabase } from './ledger-database.js';

export interface RejectedEntry {
  source: string;
  id: string;
  reason: string;
  body: string;
}

export async function recordRejectedEntries(
  db: LedgerDatabase,
  entries: readonly RejectedEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO usage_rejected_entries (source, entry_id, reason, body)
     SELECT source, id, reason, body
     FROM jsonb_to_recordset($1::jsonb) AS r(source text, id text, reason text, body text)
     ON CONFLICT (source, entry_id) DO NOTHING`,
    [JSON.stringify(entries)],
  );
}
