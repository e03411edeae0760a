/**
 * One request's captured bodies, for one key of one namespace: read only by request id (never
 * listed, never exported). A capture past its `expires_at` is not returned even before retention
 * has dropped its partition.
 */
import type { CapturedBody, CapturedCall, Redaction } from '../../store/captured-call.js';
import { readNumber, type LedgerQueryable, type Row } from '../ledger-database.js';
import { fromMs, toMs } from './usage-sums.js';

export interface CaptureQuery {
  namespace: string;
  keyUid: string;
  requestId: string;
  /** Epoch ms: captures that expired before it are gone. */
  now: number;
}

const bodySelect = (side: 'request' | 'response') =>
  `${side}_text, ${side}_bytes, ${side}_truncated, ${side}_content_type, ${side}_redactions`;

export const READ_CAPTURED_CALL_SQL = `SELECT request_id, ${toMs('at')} AS at_ms,
  ${toMs('expires_at')} AS expires_at_ms, namespace, key_uid, key_name, group_name, platform, path,
  model, streamed, ${bodySelect('request')}, ${bodySelect('response')}
FROM captured_calls
WHERE request_id = $1 AND namespace = $2 AND key_uid = $3
  AND expires_at > ${fromMs('$4')}
LIMIT 1`;

function redactionsOf(value: unknown): Redaction[] {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { kind, count } = item as { kind?: unknown; count?: unknown };
    return typeof kind === 'string' ? [{ kind, count: readNumber(count) }] : [];
  });
}

function bodyOf(row: Row, side: 'request' | 'response'): CapturedBody | null {
  const text = row[`${side}_text`];
  if (typeof text !== 'string') return null;
  const contentType = row[`${side}_content_type`];
  return {
    text,
    bytes: readNumber(row[`${side}_bytes`]),
    truncated: row[`${side}_truncated`] === true,
    contentType: typeof contentType === 'string' ? contentType : '',
    redactions: redactionsOf(row[`${side}_redactions`]),
  };
}

/** The capture of one request of the key, or null when none is kept. */
export async function readCapturedCall(
  db: LedgerQueryable,
  query: CaptureQuery,
): Promise<CapturedCall | null> {
  const rows = await db.query(READ_CAPTURED_CALL_SQL, [
    query.requestId,
    query.namespace,
    query.keyUid,
    query.now,
  ]);
  const row = rows[0];
  if (row === undefined) return null;
  return {
    requestId: String(row.request_id),
    namespace: String(row.namespace),
    keyName: String(row.key_name),
    keyUid: String(row.key_uid),
    group: String(row.group_name),
    platform: String(row.platform),
    path: String(row.path),
    model: typeof row.model === 'string' ? row.model : null,
    streamed: row.streamed === true,
    at: readNumber(row.at_ms),
    expiresAt: readNumber(row.expires_at_ms),
    request: bodyOf(row, 'request'),
    response: bodyOf(row, 'response'),
  };
}
