/**
 * Writes one batch of stream entries to the ledger: valid records through the idempotent insert,
 * quota resets into `usage_quota_resets`, anything else into `usage_rejected_entries`. All three
 * are safe to repeat, so a batch written before a crash and read again changes nothing.
 */
import { isQuotaResetEvent, type QuotaResetEvent } from '../../store/usage-records.js';
import { insertUsageRecords } from '../insert-usage-records.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { parseLedgerRecord, type LedgerRecord } from '../ledger-record.js';
import { parseQuotaReset, recordQuotaResets } from '../record-quota-resets.js';
import { recordRejectedEntries, type RejectedEntry } from '../record-rejected-entries.js';
import type { SourceEntry } from '../../store/usage-record-source.js';

export interface WriteResult {
  inserted: number;
  duplicates: number;
  rejected: number;
}

function resetOf(body: string): QuotaResetEvent | 'invalid' | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isQuotaResetEvent(value)) return null;
  return parseQuotaReset(value) ?? 'invalid';
}

/**
 * Entries parsed between two turns of the event loop: in `tollgate local` the recorder shares its
 * thread with the gateway, and a batch of 500 parsed at once held it for about 10 ms.
 */
const PARSE_SLICE = 100;

const nextTurn = (): Promise<void> => new Promise((resume) => setImmediate(resume));

export async function writeEntries(
  db: LedgerDatabase,
  entries: readonly SourceEntry[],
): Promise<WriteResult> {
  const records: LedgerRecord[] = [];
  const resets: QuotaResetEvent[] = [];
  const rejected: RejectedEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    if (index > 0 && index % PARSE_SLICE === 0) await nextTurn();
    const reset = resetOf(entry.body);
    if (reset !== null && reset !== 'invalid') {
      resets.push(reset);
      continue;
    }
    const parsed = parseLedgerRecord(entry.body);
    if (parsed.ok) records.push(parsed.record);
    else {
      const reason = reset === 'invalid' ? 'invalid quota reset' : parsed.reason;
      rejected.push({ source: entry.source, id: entry.id, reason, body: entry.body });
    }
  }
  await recordRejectedEntries(db, rejected);
  await recordQuotaResets(db, resets);
  const inserted = await insertUsageRecords(db, records);
  return { inserted, duplicates: records.length - inserted, rejected: rejected.length };
}
