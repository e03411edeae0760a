/**
 * The console API's usage calls (/api/v1/accounts/{ns}/usage/…): the account's trend, model
 * distribution, top keys and standing, and a key's records (one page, or the CSV address); and one
 * record of a key with its captured bodies (/api/v1/accounts/{ns}/keys/{name}/records/{id}).
 */
import type { z } from 'zod';
import type {
  AccountStanding,
  PlanWindow,
  SubscriptionStanding,
  AccountTrend,
  modelsSchema,
  ModelShare,
  Outcome,
  RecordsPage,
  recordsQuerySchema,
  TokenSums,
  TopKey,
  topKeysSchema,
  TrendPoint,
  UsageRecordRow,
  UsageTotals,
} from '../../../server/usage/usage-schemas.js';
import type {
  CapturedBody,
  CapturedCallView,
  Redaction,
} from '../../../server/usage/capture-schemas.js';
import { callApi, segment } from './console-api.js';

export type {
  AccountStanding,
  CapturedBody,
  CapturedCallView,
  Redaction,
  PlanWindow,
  SubscriptionStanding,
  AccountTrend,
  ModelShare,
  Outcome,
  RecordsPage,
  TokenSums,
  TopKey,
  TrendPoint,
  UsageRecordRow,
  UsageTotals,
};

/** The records' filter as sent (ISO date-times for `from` and `to`). */
export type RecordFilter = Omit<z.input<typeof recordsQuerySchema>, 'limit' | 'cursor'>;

/** Pure: every token of a usage (reasoning is part of the output, so it is not added again). */
export function totalTokens(tokens: TokenSums): number {
  return (
    tokens.inputUncached +
    tokens.cacheRead +
    tokens.cacheWrite5m +
    tokens.cacheWrite1h +
    tokens.output
  );
}

/** Pure: a query string of the defined values, in the order given. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const base = (namespace: string) => `/accounts/${segment(namespace)}/usage`;

/** One record of a key, by request id. */
export interface RecordRef {
  namespace: string;
  name: string;
  requestId: string;
}

const recordPath = (ref: RecordRef) =>
  `/accounts/${segment(ref.namespace)}/keys/${segment(ref.name)}/records/${segment(ref.requestId)}`;

export const usageApi = {
  trend: (input: { namespace: string; bucket: 'hour' | 'day'; from: string; to: string }) =>
    callApi<AccountTrend>(
      `${base(input.namespace)}/trend${queryString({ bucket: input.bucket, from: input.from, to: input.to })}`,
    ),
  /** Per model, the account's or (with `key`) one key's usage. */
  models: (input: { namespace: string; from: string; to: string; key?: string }) =>
    callApi<z.output<typeof modelsSchema>>(
      `${base(input.namespace)}/models${queryString({ from: input.from, to: input.to, key: input.key })}`,
    ),
  topKeys: (input: { namespace: string; from: string; to: string; limit: number }) =>
    callApi<z.output<typeof topKeysSchema>>(
      `${base(input.namespace)}/top-keys${queryString({ from: input.from, to: input.to, limit: input.limit })}`,
    ),
  standing: (namespace: string) => callApi<AccountStanding>(`${base(namespace)}/account`),
  records: (input: { namespace: string; filter: RecordFilter; limit: number; cursor?: string }) =>
    callApi<RecordsPage>(
      `${base(input.namespace)}/records${queryString({ ...input.filter, limit: input.limit, cursor: input.cursor })}`,
    ),
  record: (ref: RecordRef) => callApi<UsageRecordRow>(recordPath(ref)),
  /** 403 without `get apikeys/captures` on the key, 404 when the call was not captured. */
  capture: (ref: RecordRef) => callApi<CapturedCallView>(`${recordPath(ref)}/capture`),
  /** The address of the filtered records as CSV (a plain GET with the session cookie). */
  recordsCsvHref: (input: { namespace: string; filter: RecordFilter }) =>
    `/api/v1${base(input.namespace)}/records.csv${queryString({ ...input.filter })}`,
};
