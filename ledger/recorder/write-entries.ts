/**
 * Writes one batch of stream entries to the ledger: valid records through the idempotent insert,
 * anything else into `usage_rejected_entries`. Both are safe to repeat, so a batch written before a
 * crash and read again changes nothing.
 */
import { insertUsageRecords } from '../insert-usage-records.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { parseLedgerRecord, type LedgerRecord } from '../ledger-record.js';
import { recordRejectedEntries, type RejectedEntry } from '../record-rejected-entries.js';
import type { SourceEntry } from './record-source.js';

export interface WriteResult {
  inserted: number;
  duplicates: number;
  rejected: number;
}

export async function writeEntries(
  db: LedgerDatabase,
  entries: readonly SourceEntry[],
): Promise<WriteResult> {
  const records: LedgerRecord[] = [];
  const rejected: RejectedEntry[] = [];
  for (const entry of entries) {
    const parsed = parseLedgerRecord(entry.body);
    if (parsed.ok) records.push(parsed.record);
    else
      rejected.push({
        source: entry.source,
        id: entry.id,
        reason: parsed.reason,
        body: entry.body,
      });
  }
  await recordRejectedEntries(db, rejected);
  const inserted = await insertUsageRecords(db, records);
  return { inserted, duplicates: records.length - inserted, rejected: rejected.length };
}
