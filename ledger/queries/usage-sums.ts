/** The sums every usage query returns, the SQL that selects them and the mapping of a row. */
import type { UsageBuckets } from '../../store/usage-buckets.js';
import { readNumber, type Row } from '../ledger-database.js';

export interface UsageSums {
  requests: number;
  /** Requests billed from an estimate (the client went away before the upstream reported usage). */
  estimatedRequests: number;
  /** Requests whose status was not 2xx. */
  errorRequests: number;
  tokens: UsageBuckets;
  costNano: number;
}

/** A SQL value for an epoch-ms parameter. */
export const fromMs = (placeholder: string) =>
  `(timestamptz 'epoch' + ${placeholder}::bigint * interval '1 millisecond')`;

/** Epoch ms of a timestamptz expression. */
export const toMs = (expression: string) => `floor(extract(epoch from ${expression}) * 1000)::int8`;

/** The token and cost columns a usage record carries and every rollup sums. */
export const TOKEN_COST_COLUMNS = [
  'input_uncached_tokens',
  'cache_read_tokens',
  'cache_write_5m_tokens',
  'cache_write_1h_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cost_nano',
] as const;

/** The rollup columns a `UsageSums` is read from (`ROLLUP_SUMS` sums these). */
export const ROLLUP_SUM_COLUMNS = [
  'requests',
  'estimated_requests',
  'error_requests',
  ...TOKEN_COST_COLUMNS,
] as const;

/** Sums over `usage_rollups_hourly` rows (also usable over grouped subsets). */
export const ROLLUP_SUMS = `
  coalesce(sum(requests), 0)::text AS requests,
  coalesce(sum(estimated_requests), 0)::text AS estimated_requests,
  coalesce(sum(error_requests), 0)::text AS error_requests,
  coalesce(sum(input_uncached_tokens), 0)::text AS input_uncached_tokens,
  coalesce(sum(cache_read_tokens), 0)::text AS cache_read_tokens,
  coalesce(sum(cache_write_5m_tokens), 0)::text AS cache_write_5m_tokens,
  coalesce(sum(cache_write_1h_tokens), 0)::text AS cache_write_1h_tokens,
  coalesce(sum(output_tokens), 0)::text AS output_tokens,
  coalesce(sum(reasoning_tokens), 0)::text AS reasoning_tokens,
  coalesce(sum(cost_nano), 0)::text AS cost_nano`;

export function usageSumsOf(row: Row | undefined): UsageSums {
  return {
    requests: readNumber(row?.requests),
    estimatedRequests: readNumber(row?.estimated_requests),
    errorRequests: readNumber(row?.error_requests),
    tokens: {
      inputUncached: readNumber(row?.input_uncached_tokens),
      cacheRead: readNumber(row?.cache_read_tokens),
      cacheWrite5m: readNumber(row?.cache_write_5m_tokens),
      cacheWrite1h: readNumber(row?.cache_write_1h_tokens),
      output: readNumber(row?.output_tokens),
      reasoning: readNumber(row?.reasoning_tokens),
    },
    costNano: readNumber(row?.cost_nano),
  };
}

export function addUsageSums(a: UsageSums, b: UsageSums): UsageSums {
  return {
    requests: a.requests + b.requests,
    estimatedRequests: a.estimatedRequests + b.estimatedRequests,
    errorRequests: a.errorRequests + b.errorRequests,
    tokens: {
      inputUncached: a.tokens.inputUncached + b.tokens.inputUncached,
      cacheRead: a.tokens.cacheRead + b.tokens.cacheRead,
      cacheWrite5m: a.tokens.cacheWrite5m + b.tokens.cacheWrite5m,
      cacheWrite1h: a.tokens.cacheWrite1h + b.tokens.cacheWrite1h,
      output: a.tokens.output + b.tokens.output,
      reasoning: a.tokens.reasoning + b.tokens.reasoning,
    },
    costNano: a.costNano + b.costNano,
  };
}

export const EMPTY_SUMS: UsageSums = usageSumsOf(undefined);

/** A statement and its values, built by a pure function and run by an executor. */
export interface SqlQuery {
  text: string;
  values: unknown[];
}
