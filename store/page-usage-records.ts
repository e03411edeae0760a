/**
 * Paging of usage records, shared by both stores: newest first (time descending, then request id
 * descending), `fromTime` inclusive, `toTime` exclusive; the cursor names the last record returned.
 */
import type { RecordPageQuery, UsageRecord } from './usage-records.js';

export interface RecordCursor {
  time: number;
  requestId: string;
}

export function encodeCursor(record: Pick<UsageRecord, 'time' | 'requestId'>): string {
  return Buffer.from(`${record.time}\n${record.requestId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): RecordCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const newline = text.indexOf('\n');
  const time = Number(text.slice(0, newline));
  if (newline < 0 || !Number.isSafeInteger(time)) throw new Error('invalid record cursor');
  return { time, requestId: text.slice(newline + 1) };
}

/** True when `(time, requestId)` comes after the cursor in newest-first order. */
export function isAfterCursor(
  entry: { time: number; requestId: string },
  cursor: RecordCursor | null,
): boolean {
  if (cursor === null) return true;
  if (entry.time !== cursor.time) return entry.time < cursor.time;
  return entry.requestId < cursor.requestId;
}

export function compareNewestFirst(left: UsageRecord, right: UsageRecord): number {
  if (left.time !== right.time) return right.time - left.time;
  if (left.requestId === right.requestId) return 0;
  return left.requestId < right.requestId ? 1 : -1;
}

export function matchesQuery(record: UsageRecord, query: RecordPageQuery): boolean {
  if (query.keyUid !== undefined && record.keyUid !== query.keyUid) return false;
  if (query.model !== undefined && record.model !== query.model) return false;
  if (query.fromTime !== undefined && record.time < query.fromTime) return false;
  if (query.toTime !== undefined && record.time >= query.toTime) return false;
  return true;
}

/** Cuts `limit` records from candidates already in order and filtered, naming the next cursor. */
export function cutPage(
  candidates: readonly UsageRecord[],
  limit: number,
): { records: UsageRecord[]; nextCursor: string | null } {
  const records = candidates.slice(0, limit);
  const last = records.at(-1);
  const nextCursor = candidates.length > limit && last !== undefined ? encodeCursor(last) : null;
  return { records, nextCursor };
}
