/**
 * Opens the ledger: PostgreSQL at `databaseUrl` (cluster mode) or PGlite persisted in
 * `<dataDir>/ledger` (local mode), then applies the migrations (one process at a time).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ledgerDatabaseOf, type LedgerDatabase } from './ledger-database.js';
import { migrateLedger } from './migrate-ledger.js';
import { PgliteWorkerDialect } from './pglite-worker-dialect.js';
import { startPgliteWorkerThread } from './pglite-worker-thread.js';

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

/**
 * The embedded ledger is small and read by one process: PostgreSQL's default 128 MB of shared buffers
 * would only make the process larger.
 */
const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'work_mem=4MB',
];

/**
 * Creates the data folder's cluster (initdb) in a short-lived child process. Initdb grows the WebAssembly
 * memory to several hundred megabytes, which a process never gives back; done here, the long-running
 * process only ever opens an existing cluster. The child compiles PGlite with the baseline compiler
 * only (`--liftoff-only`): without optimizing the 10 MB module for one initdb, the first start is 2
 * to 2.5 s shorter.
 */
async function initializePgliteFolder(folder: string): Promise<void> {
  if (existsSync(join(folder, 'PG_VERSION'))) return;
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const script = `const { PGlite } = await import(${JSON.stringify(moduleUrl.href)});
const db = new PGlite(${JSON.stringify(folder)});
await db.query('select 1');
await db.close();`;
  await promisify(execFile)(process.execPath, [
    '--liftoff-only',
    '--input-type=module',
    '-e',
    script,
  ]);
}

async function openPglite(dataDir: string): Promise<LedgerDatabase> {
  const folder = join(dataDir, 'ledger');
  mkdirSync(folder, { recursive: true });
  await initializePgliteFolder(folder);
  // PGlite runs its statements on the thread that owns it: not the caller's (pglite-worker-thread.ts).
  const thread = startPgliteWorkerThread({ folder, startParams: PGLITE_START_PARAMS });
  return ledgerDatabaseOf({
    kind: 'pglite',
    kysely: new Kysely<unknown>({ dialect: new PgliteWorkerDialect(thread) }),
  });
}

export async function openLedgerDatabase(
  location: LedgerLocation,
  options: OpenLedgerOptions = {},
): Promise<LedgerDatabase> {
  const db =
    'databaseUrl' in location
      ? openPostgres(location.databaseUrl, options)
      : await openPglite(location.dataDir);
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
