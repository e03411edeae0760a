/**
 * Quota resets, as the store appends them to the usage stream: the counter restore sums a key's
 * quota from its last reset. Small (one row per reset) and never cut by retention.
 */
import { sql, type Kysely, type Migration } from 'kysely';

async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE TABLE usage_quota_resets (
        namespace text NOT NULL,
        key_uid text NOT NULL,
        token text NOT NULL,
        reset_at timestamptz NOT NULL,
        PRIMARY KEY (namespace, key_uid, token)
      )`,
    )
    .execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP TABLE usage_quota_resets').execute(db);
}

export const quotaResetsMigration: Migration = { up, down };
