/**
 * The records waiting in a namespace's usage stream (appended, not yet acknowledged by the
 * recorder), oldest first. Stream entries hold the JSON in one field; quota resets and entries
 * that do not parse are left out.
 */
import { USAGE_STREAM_FIELD } from './lua-shared-functions.js';
import { isQuotaResetEvent, type SettledRecord } from './usage-records.js';

/** Parses one entry body; null for a quota reset or anything that is not a record. */
export function parsePendingRecord(body: string): SettledRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || isQuotaResetEvent(value)) return null;
  if (typeof (value as { requestId?: unknown }).requestId !== 'string') return null;
  return value as SettledRecord;
}

/** XRANGE reply: [[id, [field, value, ...]], ...]. */
export function pendingRecordsOf(reply: readonly [string, string[]][]): SettledRecord[] {
  const records: SettledRecord[] = [];
  for (const [, fields] of reply) {
    for (let index = 0; index + 1 < fields.length; index += 2) {
      if (fields[index] !== USAGE_STREAM_FIELD) continue;
      const record = parsePendingRecord(fields[index + 1] ?? '');
      if (record !== null) records.push(record);
    }
  }
  return records;
}
