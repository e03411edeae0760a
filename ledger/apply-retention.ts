/**
 * Retention: drops the daily partitions older than `retentionDays` (whole UTC days before the day
 * of `now - retentionDays`, or, with a time zone, before the UTC day in which that local day
 * starts, so every record of the last `retentionDays` local days is kept) with the matching hourly
 * rollups and request ids. Lifetime totals per key (`usage_totals`) stay, so an account's spend
 * survives retention. The same step drops the captured bodies that have expired
 * (drop-expired-captures.ts), whose retention is each capture's own `expiresAt`.
 */
import { dropExpiredCaptures } from './drop-expired-captures.js';
import { forgetPartitions } from './ensure-partitions.js';
import { readNumber, type LedgerDatabase } from './ledger-database.js';
import { startOfLocalDay } from './queries/local-time.js';

export const DEFAULT_RETENTION_DAYS = 90;

export async function applyRetention(
  db: LedgerDatabase,
  options: { now: number; retentionDays: number; timeZone?: string },
): Promise<number> {
  if (!Number.isInteger(options.retentionDays) || options.retentionDays < 1) {
    throw new RangeError('retentionDays must be a positive integer');
  }
  const back = options.now - options.retentionDays * 86_400_000;
  const cutoff = new Date(
    options.timeZone === undefined ? back : startOfLocalDay(back, options.timeZone),
  );
  const cutoffDay = cutoff.toISOString().slice(0, 10);
  const rows = await db.query<{ dropped: unknown }>(
    'SELECT ledger_apply_retention($1::date) AS dropped',
    [cutoffDay],
  );
  forgetPartitions(db);
  await dropExpiredCaptures(db, { now: options.now });
  return readNumber(rows[0]?.dropped);
}
