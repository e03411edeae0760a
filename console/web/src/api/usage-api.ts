/**
 * The console API's usage calls (/api/v1/accounts/{ns}/usage/…): the account's trend, model
 * distribution, top keys and standing, and a key's records (one page, or the CSV address).
 */
import { callApi, segment } from './console-api.js';

export interface TokenSums {
  inputUncached: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
}

export interface UsageTotals {
  requests: number;
  estimatedRequests: number;
  errorRequests: number;
  tokens: TokenSums;
  costNano: number;
}

export interface TrendPoint extends UsageTotals {
  /** Epoch ms the bucket starts. */
  start: number;
  /** `YYYY-MM-DD` (day) or `YYYY-MM-DDTHH:00` (hour), local to the console's time zone. */
  label: string;
}

export interface AccountTrend {
  timeZone: string;
  points: TrendPoint[];
}

export interface ModelShare extends UsageTotals {
  model: string;
  costShare: number;
}

export interface TopKey extends UsageTotals {
  keyUid: string;
  keyName: string;
  costShare: number;
}

export interface AccountStanding {
  namespace: string;
  hasAccount: boolean;
  displayName: string | null;
  creditUSD: string | null;
  spentUSD: string | null;
  balanceUSD: string | null;
  spentFraction: number | null;
  reservedUSD: string | null;
  inFlight: number | null;
  maxConcurrentRequests: number | null;
  source: 'store' | 'status';
}

export type Outcome = 'success' | 'client_error' | 'server_error' | 'other';

export interface UsageRecordRow {
  requestId: string;
  time: number;
  keyName: string;
  model: string;
  upstreamModel: string;
  usage: TokenSums;
  costNano: number;
  durationMs: number;
  timeToFirstByteMs: number | null;
  status: number;
  outcome: Outcome;
  stream: boolean;
  estimated: boolean;
  /** `token_count`: a token-counting call (free; not counted as a request). */
  kind: 'request' | 'token_count';
}

export interface RecordsPage {
  records: UsageRecordRow[];
  nextCursor: string | null;
}

export interface RecordFilter {
  key?: string;
  model?: string;
  outcome?: Outcome;
  /** ISO date-times. */
  from?: string;
  to?: string;
}

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

export const usageApi = {
  trend: (input: { namespace: string; bucket: 'hour' | 'day'; from: string; to: string }) =>
    callApi<AccountTrend>(
      `${base(input.namespace)}/trend${queryString({ bucket: input.bucket, from: input.from, to: input.to })}`,
    ),
  /** Per model, the account's or (with `key`) one key's usage. */
  models: (input: { namespace: string; from: string; to: string; key?: string }) =>
    callApi<{ models: ModelShare[] }>(
      `${base(input.namespace)}/models${queryString({ from: input.from, to: input.to, key: input.key })}`,
    ),
  topKeys: (input: { namespace: string; from: string; to: string; limit: number }) =>
    callApi<{ from: string; to: string; keys: TopKey[] }>(
      `${base(input.namespace)}/top-keys${queryString({ from: input.from, to: input.to, limit: input.limit })}`,
    ),
  standing: (namespace: string) => callApi<AccountStanding>(`${base(namespace)}/account`),
  records: (input: { namespace: string; filter: RecordFilter; limit: number; cursor?: string }) =>
    callApi<RecordsPage>(
      `${base(input.namespace)}/records${queryString({ ...input.filter, limit: input.limit, cursor: input.cursor })}`,
    ),
  /** The address of the filtered records as CSV (a plain GET with the session cookie). */
  recordsCsvHref: (input: { namespace: string; filter: RecordFilter }) =>
    `/api/v1${base(input.namespace)}/records.csv${queryString({ ...input.filter })}`,
};
