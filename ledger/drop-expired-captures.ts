/**
 * Retention of captured bodies: drops the `captured_calls` partitions of every UTC day before the
 * day of `now` (each holds the captures that EXPIRE that day, so all of them have expired) with
 * their request ids. Captures expiring earlier today wait for tomorrow's drop; the reader never
 * returns them meanwhile (read-captured-call.ts compares `expires_at` with now).
 */
import { forgetPartitions } from './ensure-partitions.js';
import { readNumber, type LedgerDatabase } from './ledger-database.js';

export async function dropExpiredCaptures(
  db: LedgerDatabase,
  options: { now: number },
): Promise<number> {
  const today = new Date(options.now).toISOString().slice(0, 10);
  const rows = await db.query<{ dropped: unknown }>(
    'SELECT ledger_drop_expired_captures($1::date) AS dropped',
    [today],
  );
  forgetPartitions(db);
  return readNumber(rows[0]?.dropped);
}
