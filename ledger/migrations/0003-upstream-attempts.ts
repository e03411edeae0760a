/**
 * The upstream attempts of each request (failover, docs/upstream-pools.md): 1 when the first
 * upstream served, more when earlier ones failed before the first byte, 0 when nothing was sent
 * upstream; null for records written before the column.
 */
import { sql, type Kysely, type Migration } from 'kysely';

async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE usage_records ADD COLUMN attempts smallint').execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE usage_records DROP COLUMN attempts').execute(db);
}

export const upstreamAttemptsMigration: Migration = { up, down };
