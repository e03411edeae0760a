/**
 * What the ledger stores: a usage record (store/usage-records.ts) plus, when the store
 * knows it, `chargedAt`, the time the settlement moved the counters (spend windows open at that
 * time, so the counter rebuild replays it). Pure parsing and mapping to the table's columns.
 */
import { z } from 'zod';
import { PLATFORMS } from '../crds/schema/resources.js';
import type { UsageRecord } from '../store/usage-records.js';

export interface LedgerRecord extends UsageRecord {
  /** Epoch ms when the counters were charged; defaults to `time + durationMs`. */
  chargedAt?: number;
}

export type Outcome = 'success' | 'client_error' | 'server_error' | 'other';

/** The outcome class of an HTTP status as recorded. */
export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 400 && status < 500) return 'client_error';
  if (status >= 500 && status < 600) return 'server_error';
  return 'other';
}

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const epochMs = z.number().int().min(0).max(253_402_300_799_999);

const recordSchema = z.object({
  requestId: z.string().min(1).max(200),
  time: epochMs,
  chargedAt: epochMs.optional(),
  namespace: z.string().min(1),
  accountUid: z.string(),
  keyUid: z.string().min(1),
  keyName: z.string(),
  group: z.string(),
  upstream: z.string().nullable(),
  platform: z.enum(PLATFORMS),
  model: z.string(),
  upstreamModel: z.string(),
  usage: z.object({
    inputUncached: count,
    cacheRead: count,
    cacheWrite5m: count,
    cacheWrite1h: count,
    output: count,
    reasoning: count,
  }),
  costNano: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  priceVersion: z.string(),
  multiplier: z.string().regex(/^-?\d{1,12}(\.\d{1,12})?$/),
  durationMs: z.number().int().min(0).max(2_147_483_647),
  timeToFirstByteMs: z.number().int().min(0).max(2_147_483_647).nullable(),
  status: z.number().int().min(0).max(32_767),
  stream: z.boolean(),
  accuracy: z.enum(['exact', 'estimated', 'none']),
  flags: z.array(z.string()),
  attempts: z.number().int().min(0).max(32_767).optional(),
  owner: z.string().max(253).optional(),
});

export type ParsedRecord = { ok: true; record: LedgerRecord } | { ok: false; reason: string };

/** Parses one stream entry's JSON; a record the table cannot hold is refused with a reason. */
export function parseLedgerRecord(text: string): ParsedRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  return readLedgerRecord(value);
}

/** `parseLedgerRecord` of an entry already parsed from JSON. */
export function readLedgerRecord(value: unknown): ParsedRecord {
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  const { chargedAt, attempts, owner, ...fields } = parsed.data;
  const rest: LedgerRecord = {
    ...fields,
    ...(attempts === undefined ? {} : { attempts }),
    ...(owner === undefined ? {} : { owner }),
  };
  return { ok: true, record: chargedAt === undefined ? rest : { ...rest, chargedAt } };
}

/** The row handed to `jsonb_to_recordset` (times in epoch ms, converted in SQL). */
export interface RecordRow {
  request_id: string;
  time_ms: number;
  charged_at_ms: number;
  namespace: string;
  account_uid: string;
  key_uid: string;
  key_name: string;
  group_name: string;
  platform: string;
  model: string;
  upstream_model: string;
  upstream: string | null;
  input_uncached_tokens: number;
  cache_read_tokens: number;
  cache_write_5m_tokens: number;
  cache_write_1h_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost_nano: number;
  price_version: string;
  multiplier: string;
  duration_ms: number;
  ttfb_ms: number | null;
  status: number;
  outcome: Outcome;
  stream: boolean;
  accuracy: UsageRecord['accuracy'];
  estimated: boolean;
  flags: string[];
  attempts: number | null;
  owner: string | null;
}

export function recordRow(record: LedgerRecord): RecordRow {
  const { usage } = record;
  return {
    request_id: record.requestId,
    time_ms: record.time,
    charged_at_ms: record.chargedAt ?? record.time + record.durationMs,
    namespace: record.namespace,
    account_uid: record.accountUid,
    key_uid: record.keyUid,
    key_name: record.keyName,
    group_name: record.group,
    platform: record.platform,
    model: record.model,
    upstream_model: record.upstreamModel,
    upstream: record.upstream,
    input_uncached_tokens: usage.inputUncached,
    cache_read_tokens: usage.cacheRead,
    cache_write_5m_tokens: usage.cacheWrite5m,
    cache_write_1h_tokens: usage.cacheWrite1h,
    output_tokens: usage.output,
    reasoning_tokens: usage.reasoning,
    cost_nano: record.costNano,
    price_version: record.priceVersion,
    multiplier: record.multiplier,
    duration_ms: record.durationMs,
    ttfb_ms: record.timeToFirstByteMs,
    status: record.status,
    outcome: outcomeOf(record.status),
    stream: record.stream,
    accuracy: record.accuracy,
    estimated: record.accuracy === 'estimated',
    flags: record.flags,
    attempts: record.attempts ?? null,
    owner: record.owner ?? null,
  };
}
