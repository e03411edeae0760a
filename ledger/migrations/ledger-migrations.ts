/** Every ledger migration by name; names sort in the order they apply. Never edit an applied one. */
import type { Migration } from 'kysely';
import { usageRecordsMigration } from './0001-usage-records.js';
import { quotaResetsMigration } from './0002-quota-resets.js';
import { upstreamAttemptsMigration } from './0003-upstream-attempts.js';
import { accountRollupsMigration } from './0004-account-rollups.js';
import { tokenCountsOutOfRollupsMigration } from './0005-token-counts-out-of-rollups.js';
import { recordOwnerMigration } from './0006-record-owner.js';
import { capturedCallsMigration } from './0007-captured-calls.js';

export const LEDGER_MIGRATIONS: Record<string, Migration> = {
  '0001-usage-records': usageRecordsMigration,
  '0002-quota-resets': quotaResetsMigration,
  '0003-upstream-attempts': upstreamAttemptsMigration,
  '0004-account-rollups': accountRollupsMigration,
  '0005-token-counts-out-of-rollups': tokenCountsOutOfRollupsMigration,
  '0006-record-owner': recordOwnerMigration,
  '0007-captured-calls': capturedCallsMigration,
};
