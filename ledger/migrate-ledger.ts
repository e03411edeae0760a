/**
 * Applies the ledger's migrations with Kysely's Migrator: it records applied migrations in
 * `ledger_migration` and holds a PostgreSQL advisory lock while migrating, so when several
 * processes start at once exactly one applies them and the others wait and find nothing to do.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { LedgerDatabase } from './ledger-database.js';
import { LEDGER_MIGRATIONS } from './migrations/ledger-migrations.js';

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve<Record<string, Migration>>(LEDGER_MIGRATIONS),
};

export async function migrateLedger(db: LedgerDatabase): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider,
    migrationTableName: 'ledger_migration',
    migrationLockTableName: 'ledger_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    throw new Error('ledger migration failed', { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}
