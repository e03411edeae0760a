/**
 * Inserts a batch of captured calls in one statement (one transaction): the request id registry
 * `captured_call_ids` admits each request id once, and only the admitted calls go into
 * `captured_calls`, in the partition of the day they expire. A retried batch, or a capture seen
 * before in another batch, changes nothing. A capture already expired when it arrives (the recorder
 * was away longer than its retention) is not stored at all.
 */
import type { CapturedCall } from '../store/captured-call.js';
import { capturedCallRow } from './captured-call-row.js';
import { ensureCapturePartitions, forgetPartitions } from './ensure-partitions.js';
import { isMissingPartition } from './insert-usage-records.js';
import { readNumber, type LedgerDatabase } from './ledger-database.js';

const BODY_COLUMNS = (side: string) =>
  ['text', 'bytes', 'truncated', 'content_type', 'redactions'].map((column) => `${side}_${column}`);

const CAPTURE_COLUMNS = [
  'expires_at',
  'request_id',
  'at',
  'namespace',
  'key_uid',
  'key_name',
  'group_name',
  'platform',
  'path',
  'model',
  'streamed',
  ...BODY_COLUMNS('request'),
  ...BODY_COLUMNS('response'),
] as const;

const TIME = (column: string) => `timestamptz 'epoch' + c.${column} * interval '1 millisecond'`;

export const INSERT_CAPTURED_CALLS_SQL = `
WITH src AS (
  SELECT c.*, ${TIME('at_ms')} AS at, ${TIME('expires_at_ms')} AS expires_at
  FROM jsonb_to_recordset($1::jsonb) AS c(
    request_id text, at_ms bigint, expires_at_ms bigint, namespace text, key_uid text,
    key_name text, group_name text, platform text, path text, model text, streamed boolean,
    request_text text, request_bytes bigint, request_truncated boolean,
    request_content_type text, request_redactions jsonb,
    response_text text, response_bytes bigint, response_truncated boolean,
    response_content_type text, response_redactions jsonb)
), ids AS (
  INSERT INTO captured_call_ids (request_id, expires_at)
  SELECT request_id, expires_at FROM src ORDER BY request_id
  ON CONFLICT (request_id) DO NOTHING
  RETURNING request_id
), inserted AS (
  INSERT INTO captured_calls (${CAPTURE_COLUMNS.join(', ')})
  SELECT ${CAPTURE_COLUMNS.map((column) => `src.${column}`).join(', ')}
  FROM src JOIN ids USING (request_id)
  RETURNING request_id
)
SELECT count(*) AS inserted FROM inserted`;

export interface CaptureInsertResult {
  /** Captures stored. */
  inserted: number;
  /** Captures not stored because they had expired already. */
  expired: number;
}

/** Inserts the captures once each (by request id); says how many were new and how many expired. */
export async function insertCapturedCalls(
  db: LedgerDatabase,
  batch: { calls: readonly CapturedCall[]; now: number },
): Promise<CaptureInsertResult> {
  const unique = new Map<string, CapturedCall>();
  let expired = 0;
  for (const call of batch.calls) {
    if (call.expiresAt <= batch.now) expired++;
    else if (!unique.has(call.requestId)) unique.set(call.requestId, call);
  }
  if (unique.size === 0) return { inserted: 0, expired };
  const calls = [...unique.values()];
  const rows = JSON.stringify(calls.map(capturedCallRow));
  for (let attempt = 0; ; attempt++) {
    await ensureCapturePartitions(
      db,
      calls.map((call) => call.expiresAt),
    );
    try {
      // One statement is one transaction of its own: no BEGIN and COMMIT around it.
      const result = await db.query<{ inserted: unknown }>(INSERT_CAPTURED_CALLS_SQL, [rows]);
      return { inserted: readNumber(result[0]?.inserted), expired };
    } catch (error) {
      // A partition this process created was dropped since (retention): create it again once.
      if (attempt > 0 || !isMissingPartition(error)) throw error;
      forgetPartitions(db);
    }
  }
}
