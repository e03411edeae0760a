/**
 * Daily partitions of `usage_records` (UTC days): created ahead by `createPartitionsAhead` (at start
 * and by the recorder's maintenance tick) and on demand before a batch whose days are missing.
 * Each process remembers the days it has seen created, so a batch normally costs no extra query.
 */
import type { LedgerDatabase } from './ledger-database.js';

const DAY_MS = 86_400_000;
const knownDays = new WeakMap<LedgerDatabase, Set<number>>();

function known(db: LedgerDatabase): Set<number> {
  let days = knownDays.get(db);
  if (days === undefined) {
    days = new Set();
    knownDays.set(db, days);
  }
  return days;
}

function isoDay(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

async function createDays(db: LedgerDatabase, first: number, count: number): Promise<void> {
  await db.query('SELECT ledger_create_partitions($1::date, $2::integer)', [isoDay(first), count]);
  for (let day = first; day < first + count; day++) known(db).add(day);
}

/** Makes sure a partition exists for the UTC day of every given time (epoch ms). */
export async function ensurePartitions(db: LedgerDatabase, times: Iterable<number>): Promise<void> {
  const days = known(db);
  const missing = new Set<number>();
  for (const time of times) {
    const day = Math.floor(time / DAY_MS);
    if (!days.has(day)) missing.add(day);
  }
  for (const day of [...missing].sort((a, b) => a - b)) await createDays(db, day, 1);
}

/** Creates the partitions from the day of `now` through `daysAhead` days later. */
export async function createPartitionsAhead(
  db: LedgerDatabase,
  options: { now: number; daysAhead: number },
): Promise<void> {
  await createDays(db, Math.floor(options.now / DAY_MS), options.daysAhead + 1);
}

/** Forgets the remembered partitions (after retention dropped some, or an insert found none). */
export function forgetPartitions(db: LedgerDatabase): void {
  knownDays.delete(db);
}
