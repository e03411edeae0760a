/**
 * Opens the ledger: PostgreSQL at `databaseUrl` (cluster mode) or PGlite persisted in
 * `<dataDir>/ledger` (local mode), then applies the migrations (one process at a time).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { ledgerDatabaseOf, type LedgerDatabase } from './ledger-database.js';
import { migrateLedger } from './migrate-ledger.js';

export type LedgerLocation = { databaseUrl: string } | { dataDir: string };

export interface OpenLedgerOptions {
  /** Pool size for PostgreSQL (default 10). */
  maxConnections?: number;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** Called for errors of pooled connections (a restarted server); they are not fatal. */
  onIdleError?: (error: Error) => void;
}

function openPostgres(databaseUrl: string, options: OpenLedgerOptions): LedgerDatabase {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
  });
  // A server restart ends idle connections; the pool replaces them on the next query.
  pool.on('error', (error) => options.onIdleError?.(error));
  // A connection held by a query that fails reports the error there; keep the event from throwing.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onIdleError?.(error));
  });
  return ledgerDatabaseOf({
    kind: 'postgres',
    kysely: new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }),
  });
}

function openPglite(dataDir: string): LedgerDatabase {
  const folder = join(dataDir, 'ledger');
  mkdirSync(folder, { recursive: true });
  return ledgerDatabaseOf({
    kind: 'pglite',
    kysely: new Kysely<unknown>({ dialect: new PGliteDialect(new PGlite(folder)) }),
  });
}

export async function openLedgerDatabase(
  location: LedgerLocation,
  options: OpenLedgerOptions = {},
): Promise<LedgerDatabase> {
  const db =
    'databaseUrl' in location
      ? openPostgres(location.databaseUrl, options)
      : openPglite(location.dataDir);
  if (options.migrate !== false) {
    try {
      await migrateLedger(db);
    } catch (error) {
      await db.close();
      throw error;
    }
  }
  return db;
}
