/**
 * One query interface over the two PostgreSQL engines the ledger runs on: a real server through a
 * `pg` pool (cluster mode) and the embedded PGlite (local mode). Both run the same SQL; Kysely is
 * used for migrations and transactions, the ledger's own statements are plain SQL with `$n` values.
 */
import { CompiledQuery, type Kysely } from 'kysely';

/** Rows come back as plain objects; numbers may be strings or bigints (read with `readNumber`). */
export type Row = Record<string, unknown>;

export interface LedgerQueryable {
  query<T extends Row = Row>(text: string, values?: readonly unknown[]): Promise<T[]>;
}

export interface LedgerDatabase extends LedgerQueryable {
  readonly kind: 'postgres' | 'pglite';
  /** Kysely over the same connection (migrations, and anything that wants a query builder). */
  readonly kysely: Kysely<unknown>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: LedgerQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function queryableOf(kysely: Kysely<unknown>): LedgerQueryable {
  return {
    async query<T extends Row>(text: string, values: readonly unknown[] = []) {
      const result = await kysely.executeQuery<T>(CompiledQuery.raw(text, [...values]));
      return result.rows;
    },
  };
}

export function ledgerDatabaseOf(options: {
  kind: LedgerDatabase['kind'];
  kysely: Kysely<unknown>;
}): LedgerDatabase {
  const { kind, kysely } = options;
  return {
    kind,
    kysely,
    ...queryableOf(kysely),
    transaction: (work) => kysely.transaction().execute((tx) => work(queryableOf(tx))),
    close: () => kysely.destroy(),
  };
}

/** A numeric column as a JavaScript number (pg returns int8 and numeric as text). */
export function readNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint' || typeof value === 'string') return Number(value);
  if (value === null || value === undefined) return 0;
  throw new TypeError(`not a number: ${typeof value}`);
}

export function readNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : readNumber(value);
}
