/**
 * Daily partitions (UTC days) of `usage_records` (by `time`) and `captured_calls` (by
 * `expires_at`): created ahead by `createPartitionsAhead` (at start and by the recorder's
 * maintenance tick; records only) and on demand before a batch whose days are missing. Each process
 * remembers the days it has seen created, so a batch normally costs no extra query.
 */
import type { LedgerDatabase } from './ledger-database.js';

const DAY_MS = 86_400_000;

/** The partitioned tables and the SQL function that creates their missing days. */
const CREATE_FUNCTION = {
  records: 'ledger_create_partitions',
  captures: 'ledger_create_capture_partitions',
} as const;

type PartitionedTable = keyof typeof CREATE_FUNCTION;

const knownDays = new WeakMap<LedgerDatabase, Record<PartitionedTable, Set<number>>>();

function known(db: LedgerDatabase, table: PartitionedTable): Set<number> {
  let days = knownDays.get(db);
  if (days === undefined) {
    days = { records: new Set(), captures: new Set() };
    knownDays.set(db, days);
  }
  return days[table];
}

function isoDay(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

async function createDays(
  db: LedgerDatabase,
  table: PartitionedTable,
  days: { first: number; count: number },
): Promise<void> {
  await db.query(`SELECT ${CREATE_FUNCTION[table]}($1::date, $2::integer)`, [
    isoDay(days.first),
    days.count,
  ]);
  for (let day = days.first; day < days.first + days.count; day++) known(db, table).add(day);
}

async function ensureDays(
  db: LedgerDatabase,
  table: PartitionedTable,
  times: Iterable<number>,
): Promise<void> {
  const days = known(db, table);
  const missing = new Set<number>();
  for (const time of times) {
    const day = Math.floor(time / DAY_MS);
    if (!days.has(day)) missing.add(day);
  }
  for (const day of [...missing].sort((a, b) => a - b)) {
    await createDays(db, table, { first: day, count: 1 });
  }
}

/** Makes sure a `usage_records` partition exists for the UTC day of every given time (epoch ms). */
export async function ensurePartitions(db: LedgerDatabase, times: Iterable<number>): Promise<void> {
  await ensureDays(db, 'records', times);
}

/** Makes sure a `captured_calls` partition exists for the UTC day of every expiry (epoch ms). */
export async function ensureCapturePartitions(
  db: LedgerDatabase,
  expiries: Iterable<number>,
): Promise<void> {
  await ensureDays(db, 'captures', expiries);
}

/** Creates the partitions from the day of `now` through `daysAhead` days later. */
export async function createPartitionsAhead(
  db: LedgerDatabase,
  options: { now: number; daysAhead: number },
): Promise<void> {
  await createDays(db, 'records', {
    first: Math.floor(options.now / DAY_MS),
    count: options.daysAhead + 1,
  });
}

/** Forgets the remembered partitions (after retention dropped some, or an insert found none). */
export function forgetPartitions(db: LedgerDatabase): void {
  knownDays.delete(db);
}
