/**
 * A page of usage records, newest first, filtered by key, model, time range and outcome, with
 * keyset pagination on (time, request_id): the cursor names the last row shown, so pages stay
 * stable while new records arrive and a deep page costs what the first one does.
 */
import {
  readNullableNumber,
  readNumber,
  type LedgerQueryable,
  type Row,
} from '../ledger-database.js';
import type { LedgerRecord, Outcome } from '../ledger-record.js';
import { IS_TOKEN_COUNT_SQL, type RecordKind } from './token-count-records.js';
import { fromMs, toMs, type SqlQuery } from './usage-sums.js';

export interface RecordFilter {
  namespace: string;
  keyUid?: string;
  model?: string;
  /** Inclusive epoch ms. */
  from?: number;
  /** Exclusive epoch ms. */
  to?: number;
  outcome?: Outcome;
}

export interface RecordPageQuery extends RecordFilter {
  /** 1 to 1000. */
  limit: number;
  cursor?: string;
}

export interface LedgerRow extends LedgerRecord {
  chargedAt: number;
  outcome: Outcome;
  estimated: boolean;
  /** `token_count`: a token-counting call (free, no request: token-count-records.ts). */
  kind: RecordKind;
}

export interface LedgerPage {
  records: LedgerRow[];
  nextCursor: string | null;
}

export const RECORD_SELECT = `request_id, ${toMs('time')} AS time_ms,
  ${toMs('charged_at')} AS charged_at_ms, namespace, account_uid, key_uid, key_name, group_name,
  platform, model, upstream_model, upstream, input_uncached_tokens, cache_read_tokens,
  cache_write_5m_tokens, cache_write_1h_tokens, output_tokens, reasoning_tokens,
  cost_nano::text AS cost_nano, price_version, multiplier::text AS multiplier, duration_ms,
  ttfb_ms, status, outcome, stream, accuracy, estimated, flags,
  ${IS_TOKEN_COUNT_SQL} AS token_count`;

export function encodeCursor(time: number, requestId: string): string {
  return Buffer.from(JSON.stringify([time, requestId])).toString('base64url');
}

export function decodeCursor(cursor: string): { time: number; requestId: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new RangeError('invalid cursor');
  }
  if (!Array.isArray(value) || !Number.isSafeInteger(value[0]) || typeof value[1] !== 'string') {
    throw new RangeError('invalid cursor');
  }
  return { time: value[0] as number, requestId: value[1] };
}

export function buildRecordsPageSql(query: RecordPageQuery): SqlQuery {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 1000) {
    throw new RangeError('limit must be between 1 and 1000');
  }
  const values: unknown[] = [query.namespace];
  const where = ['namespace = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    where.push(condition(`$${values.length}`));
  };
  if (query.keyUid !== undefined) add((p) => `key_uid = ${p}`, query.keyUid);
  if (query.model !== undefined) add((p) => `model = ${p}`, query.model);
  if (query.from !== undefined) add((p) => `time >= ${fromMs(p)}`, query.from);
  if (query.to !== undefined) add((p) => `time < ${fromMs(p)}`, query.to);
  if (query.outcome !== undefined) add((p) => `outcome = ${p}`, query.outcome);
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor);
    values.push(cursor.time, cursor.requestId);
    where.push(`(time, request_id) < (${fromMs(`$${values.length - 1}`)}, $${values.length})`);
  }
  values.push(query.limit + 1);
  return {
    text: `SELECT ${RECORD_SELECT} FROM usage_records WHERE ${where.join(' AND ')}
      ORDER BY time DESC, request_id DESC LIMIT $${values.length}`,
    values,
  };
}

export function ledgerRowOf(row: Row): LedgerRow {
  return {
    requestId: String(row.request_id),
    time: readNumber(row.time_ms),
    chargedAt: readNumber(row.charged_at_ms),
    namespace: String(row.namespace),
    accountUid: String(row.account_uid),
    keyUid: String(row.key_uid),
    keyName: String(row.key_name),
    group: String(row.group_name),
    upstream: typeof row.upstream === 'string' ? row.upstream : null,
    platform: row.platform as LedgerRow['platform'],
    model: String(row.model),
    upstreamModel: String(row.upstream_model),
    usage: {
      inputUncached: readNumber(row.input_uncached_tokens),
      cacheRead: readNumber(row.cache_read_tokens),
      cacheWrite5m: readNumber(row.cache_write_5m_tokens),
      cacheWrite1h: readNumber(row.cache_write_1h_tokens),
      output: readNumber(row.output_tokens),
      reasoning: readNumber(row.reasoning_tokens),
    },
    costNano: readNumber(row.cost_nano),
    priceVersion: String(row.price_version),
    multiplier: String(row.multiplier),
    durationMs: readNumber(row.duration_ms),
    timeToFirstByteMs: readNullableNumber(row.ttfb_ms),
    status: readNumber(row.status),
    outcome: row.outcome as Outcome,
    stream: row.stream === true,
    accuracy: row.accuracy as LedgerRow['accuracy'],
    estimated: row.estimated === true,
    flags: Array.isArray(row.flags) ? row.flags.map(String) : [],
    kind: row.token_count === true ? 'token_count' : 'request',
  };
}

export async function queryRecordsPage(
  db: LedgerQueryable,
  query: RecordPageQuery,
): Promise<LedgerPage> {
  const built = buildRecordsPageSql(query);
  const rows = (await db.query(built.text, built.values)).map(ledgerRowOf);
  const records = rows.slice(0, query.limit);
  const last = records.at(-1);
  return {
    records,
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encodeCursor(last.time, last.requestId)
        : null,
  };
}
