/**
 * Writes one batch of stream entries to the ledger: valid records through the idempotent insert,
 * quota resets into `usage_quota_resets`, anything else into `usage_rejected_entries`. All three
 * are safe to repeat, so a batch written before a crash and read again changes nothing.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isQuotaResetEvent, type QuotaResetEvent } from '../../store/usage-records.js';
import { insertUsageRecords } from '../insert-usage-records.js';
import type { LedgerDatabase } from '../ledger-database.js';
import { readLedgerRecord, type LedgerRecord, type ParsedRecord } from '../ledger-record.js';
import { parseQuotaReset, recordQuotaResets } from '../record-quota-resets.js';
import { recordRejectedEntries, type RejectedEntry } from '../record-rejected-entries.js';
import type { SourceEntry } from '../../store/usage-record-source.js';

export interface WriteResult {
  inserted: number;
  duplicates: number;
  rejected: number;
}

/** The entry's JSON value, or `NOT_JSON`. */
const NOT_JSON = Symbol('not JSON');

function valueOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function resetOf(value: unknown): QuotaResetEvent | 'invalid' | null {
  if (!isQuotaResetEvent(value)) return null;
  return parseQuotaReset(value) ?? 'invalid';
}

/**
 * Entries parsed between two turns of the event loop: in `tollgate local` the recorder shares its
 * thread with the gateway, and a batch of 500 parsed at once held it for about 10 ms.
 */
const PARSE_SLICE = 100;

export async function writeEntries(
  db: LedgerDatabase,
  entries: readonly SourceEntry[],
): Promise<WriteResult> {
  const records: LedgerRecord[] = [];
  const resets: QuotaResetEvent[] = [];
  const rejected: RejectedEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    if (index > 0 && index % PARSE_SLICE === 0) await nextTurn();
    // Parsed once: as a quota reset, else as a usage record.
    const value = valueOf(entry.body);
    const reset = resetOf(value);
    if (reset !== null && reset !== 'invalid') {
      resets.push(reset);
      continue;
    }
    const parsed: ParsedRecord =
      value === NOT_JSON ? { ok: false, reason: 'not JSON' } : readLedgerRecord(value);
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
