/**
 * The owner of each record's key (ApiKey `spec.owner`): member budgets are restored from it after
 * a store loss, and spend per owner is summed from it. Null for keys without an owner and for
 * records written before the column. The index serves the per-owner sums of one namespace.
 */
import { sql, type Kysely, type Migration } from 'kysely';

async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE usage_records ADD COLUMN owner text').execute(db);
  await sql
    .raw(
      'CREATE INDEX usage_records_owner_time ON usage_records (namespace, owner, time) WHERE owner IS NOT NULL',
    )
    .execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX IF EXISTS usage_records_owner_time').execute(db);
  await sql.raw('ALTER TABLE usage_records DROP COLUMN owner').execute(db);
}

export const recordOwnerMigration: Migration = { up, down };
