/** One usage record of one key, by request id (the record's page in the console). */
import type { LedgerQueryable } from '../ledger-database.js';
import { ledgerRowOf, RECORD_SELECT, type LedgerRow } from './records-page.js';

export async function readUsageRecord(
  db: LedgerQueryable,
  query: { namespace: string; keyUid: string; requestId: string },
): Promise<LedgerRow | null> {
  const rows = await db.query(
    `SELECT ${RECORD_SELECT} FROM usage_records
     WHERE namespace = $1 AND key_uid = $2 AND request_id = $3 LIMIT 1`,
    [query.namespace, query.keyUid, query.requestId],
  );
  const row = rows[0];
  return row === undefined ? null : ledgerRowOf(row);
}
