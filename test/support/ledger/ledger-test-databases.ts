/**
 * Ledgers for tests: a uniquely named database on the machine's PostgreSQL (127.0.0.1:5432, trust
 * auth; created through the `postgres` maintenance database and dropped afterwards), or PGlite in a
 * temporary folder. `LEDGER_TEST_POSTGRES_URL` points at another server's maintenance database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';

export const MAINTENANCE_URL =
  process.env.LEDGER_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestLedger {
  db: LedgerDatabase;
  /** How to reach the same ledger again (another process or a second pool). */
  location: { databaseUrl: string } | { dataDir: string };
  drop(): Promise<void>;
}

async function onMaintenance(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export function databaseUrlFor(maintenanceUrl: string, name: string): string {
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates an empty database with a unique name; returns its URL and a function dropping it. */
export async function createTestDatabase(
  maintenanceUrl = MAINTENANCE_URL,
): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  const name = `tollgate_ledger_test_${randomBytes(6).toString('hex')}`;
  await onMaintenance(maintenanceUrl, `CREATE DATABASE ${name}`);
  return {
    databaseUrl: databaseUrlFor(maintenanceUrl, name),
    drop: () => onMaintenance(maintenanceUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * `reachThrough` rewrites the new database's URL before it is opened (a test that cuts the network
 * puts a proxy in front of the server); creating and dropping it always go to the server itself.
 */
export async function openTestLedger(
  kind: LedgerDatabase['kind'],
  options: { reachThrough?: (databaseUrl: string) => string } = {},
): Promise<TestLedger> {
  if (kind === 'postgres') {
    const created = await createTestDatabase();
    const reach = options.reachThrough ?? ((url: string) => url);
    const location = { databaseUrl: reach(created.databaseUrl) };
    const db = await openLedgerDatabase(location);
    return {
      db,
      location,
      drop: async () => {
        await db.close();
        await created.drop();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-ledger-'));
  const location = { dataDir };
  const db = await openLedgerDatabase(location);
  return {
    db,
    location,
    drop: async () => {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both engines, for `describe.each`. */
export const LEDGER_KINDS: LedgerDatabase['kind'][] = ['postgres', 'pglite'];
