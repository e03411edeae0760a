/**
 * The JSON of a usage record as the stores write it, built from a template of its fixed shape:
 * the fields of `UsageRecord` in its declared order (`attempts` only when set), strings and
 * numbers as `JSON.stringify` writes them (a string with nothing to escape is quoted as it is).
 * `JSON.stringify` of the record gives the same text when the record's properties are in that
 * order; the ledger parses either (ledger/ledger-record.ts). Copying the record into a new object
 * for `JSON.stringify` cost about twice as much on the settlement path. A record whose fields do
 * not have their declared types (it did not come through the types) is written by
 * `JSON.stringify`, as before.
 */
import type { LeaseRecord, UsageRecord } from './usage-records.js';

/** `JSON.stringify(value)` for a string, without its cost when nothing needs escaping. */
function jsonString(value: string): string {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    // What JSON.stringify escapes: controls, quote, backslash, surrogates (when lone).
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(value);
    }
  }
  return `"${value}"`;
}

function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** A record's fields as read before their types are known. */
type Unchecked<T> = { readonly [Name in keyof T]: unknown };

/** The record's fields have the types `UsageRecord` declares (it came through the types). */
function hasDeclaredTypes(record: LeaseRecord): boolean {
  const fields: Unchecked<LeaseRecord> = record;
  if (
    typeof fields.requestId !== 'string' ||
    typeof fields.time !== 'number' ||
    typeof fields.namespace !== 'string' ||
    typeof fields.keyUid !== 'string' ||
    typeof fields.keyName !== 'string' ||
    typeof fields.group !== 'string' ||
    (fields.upstream !== null && typeof fields.upstream !== 'string') ||
    typeof fields.platform !== 'string' ||
    typeof fields.model !== 'string' ||
    typeof fields.upstreamModel !== 'string' ||
    typeof fields.costNano !== 'number' ||
    typeof fields.priceVersion !== 'string' ||
    typeof fields.multiplier !== 'string' ||
    (fields.timeToFirstByteMs !== null && typeof fields.timeToFirstByteMs !== 'number') ||
    typeof fields.status !== 'number' ||
    typeof fields.stream !== 'boolean' ||
    typeof fields.accuracy !== 'string' ||
    (fields.attempts !== undefined && typeof fields.attempts !== 'number') ||
    (fields.owner !== undefined && typeof fields.owner !== 'string') ||
    !Array.isArray(fields.flags) ||
    typeof fields.usage !== 'object' ||
    fields.usage === null
  ) {
    return false;
  }
  for (const flag of fields.flags as unknown[]) if (typeof flag !== 'string') return false;
  const usage = fields.usage as Unchecked<UsageRecord['usage']>;
  return (
    typeof usage.inputUncached === 'number' &&
    typeof usage.cacheRead === 'number' &&
    typeof usage.cacheWrite5m === 'number' &&
    typeof usage.cacheWrite1h === 'number' &&
    typeof usage.output === 'number' &&
    typeof usage.reasoning === 'number'
  );
}

/** From `{"requestId"` up to the key's name (`"keyUid":...` follows). */
function head(record: LeaseRecord): string {
  return `{"requestId":${jsonString(record.requestId)},"time":${jsonNumber(record.time)},"namespace":${jsonString(record.namespace)}`;
}

/** From `,"keyUid"` to `"multiplier":...`, with `costNano` as given (left out when null). */
function middle(record: LeaseRecord, costNano: number | null): string {
  const { usage } = record;
  return (
    `,"keyUid":${jsonString(record.keyUid)},"keyName":${jsonString(record.keyName)}` +
    `,"group":${jsonString(record.group)}` +
    `,"upstream":${record.upstream === null ? 'null' : jsonString(record.upstream)}` +
    `,"platform":${jsonString(record.platform)},"model":${jsonString(record.model)}` +
    `,"upstreamModel":${jsonString(record.upstreamModel)}` +
    `,"usage":{"inputUncached":${jsonNumber(usage.inputUncached)}` +
    `,"cacheRead":${jsonNumber(usage.cacheRead)},"cacheWrite5m":${jsonNumber(usage.cacheWrite5m)}` +
    `,"cacheWrite1h":${jsonNumber(usage.cacheWrite1h)},"output":${jsonNumber(usage.output)}` +
    `,"reasoning":${jsonNumber(usage.reasoning)}}` +
    (costNano === null ? '' : `,"costNano":${jsonNumber(costNano)}`) +
    `,"priceVersion":${jsonString(record.priceVersion)}` +
    `,"multiplier":${jsonString(record.multiplier)}`
  );
}

/** From `,"timeToFirstByteMs"` to the last field, without the closing brace. */
function tail(record: LeaseRecord): string {
  const ttfb = record.timeToFirstByteMs;
  let flags = '';
  for (const flag of record.flags)
    flags += flags === '' ? jsonString(flag) : `,${jsonString(flag)}`;
  return (
    `,"timeToFirstByteMs":${ttfb === null ? 'null' : jsonNumber(ttfb)}` +
    `,"status":${jsonNumber(record.status)},"stream":${record.stream ? 'true' : 'false'}` +
    `,"accuracy":${jsonString(record.accuracy)},"flags":[${flags}]` +
    (record.attempts === undefined ? '' : `,"attempts":${jsonNumber(record.attempts)}`) +
    (record.owner === undefined ? '' : `,"owner":${jsonString(record.owner)}`)
  );
}

/** The stream entry's JSON of a settled record: the record with its `chargedAt` last. */
export function settledRecordJson(record: UsageRecord, chargedAt: number): string {
  const extra: Unchecked<Pick<UsageRecord, 'accountUid' | 'durationMs'>> = record;
  if (
    !hasDeclaredTypes(record) ||
    typeof extra.accountUid !== 'string' ||
    typeof extra.durationMs !== 'number'
  ) {
    return JSON.stringify({ ...record, chargedAt });
  }
  return (
    `${head(record)},"accountUid":${jsonString(record.accountUid)}` +
    `${middle(record, record.costNano)},"durationMs":${jsonNumber(record.durationMs)}` +
    `${tail(record)},"chargedAt":${jsonNumber(chargedAt)}}`
  );
}

/**
 * The JSON of a lease charge's record with `costNano` set to the reservation (left out when null:
 * a renewal's progress, whose cost the store writes when it charges it), without `accountUid` and
 * `durationMs` and without its closing brace (the store appends those).
 */
export function leaseChargeJsonPrefix(record: LeaseRecord, costNano: number | null): string {
  if (!hasDeclaredTypes(record)) {
    const fields: Record<string, unknown> = { ...record, costNano: costNano ?? undefined };
    delete fields.accountUid;
    delete fields.durationMs;
    return JSON.stringify(fields).slice(0, -1);
  }
  return `${head(record)}${middle(record, costNano)}${tail(record)}`;
}
