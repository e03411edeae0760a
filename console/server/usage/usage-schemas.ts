/**
 * The usage API's shapes (zod): the filters each usage route accepts, and what it answers (a key's
 * summary, the account's trend, models, top keys and standing, a page of records). Pure (zod only):
 * the web app infers its types from these; the ledger's queries produce the answers.
 */
import { z } from 'zod';

const time = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));
export const outcomeSchema = z.enum(['success', 'client_error', 'server_error', 'other']);
export type Outcome = z.output<typeof outcomeSchema>;

/** The trend and the models: a range (default: the last 30 days), a bucket, one key. */
export const rangeQuerySchema = z.strictObject({
  from: time.optional(),
  to: time.optional(),
  bucket: z.enum(['hour', 'day']).default('day'),
  key: z.string().max(253).optional(),
});

export const recordsQuerySchema = z.strictObject({
  from: time.optional(),
  to: time.optional(),
  key: z.string().max(253).optional(),
  model: z.string().max(200).optional(),
  outcome: outcomeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(500).optional(),
});

export const topKeysQuerySchema = z.strictObject({
  from: time.optional(),
  to: time.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const keySummaryQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30),
});

/** The six token buckets (store/usage-buckets.ts); reasoning is part of output. */
export const tokenSumsSchema = z.object({
  inputUncached: z.number(),
  cacheRead: z.number(),
  cacheWrite5m: z.number(),
  cacheWrite1h: z.number(),
  output: z.number(),
  reasoning: z.number(),
});
export type TokenSums = z.output<typeof tokenSumsSchema>;

export const usageTotalsSchema = z.object({
  requests: z.number(),
  /** Requests billed from an estimate (the client went away before the upstream reported usage). */
  estimatedRequests: z.number(),
  /** Requests whose status was not 2xx. */
  errorRequests: z.number(),
  tokens: tokenSumsSchema,
  costNano: z.number(),
});
export type UsageTotals = z.output<typeof usageTotalsSchema>;

/** A key's usage: today, the last days with a daily breakdown, its quota. */
export const keySummarySchema = z.object({
  timeZone: z.string(),
  today: usageTotalsSchema,
  lastDays: usageTotalsSchema,
  /** One entry per day, oldest first, days without usage included. */
  daily: z.array(usageTotalsSchema.extend({ day: z.string() })),
  quota: z
    .object({
      limitNano: z.number(),
      usedNano: z.number(),
      remainingNano: z.number(),
      fraction: z.number(),
    })
    .nullable(),
});
export type KeySummary = z.output<typeof keySummarySchema>;

export const trendPointSchema = usageTotalsSchema.extend({
  /** Epoch ms the bucket starts. */
  start: z.number(),
  /** `YYYY-MM-DD` (day) or `YYYY-MM-DDTHH:00` (hour), local to the console's time zone. */
  label: z.string(),
});
export type TrendPoint = z.output<typeof trendPointSchema>;

export const accountTrendSchema = z.object({
  timeZone: z.string(),
  points: z.array(trendPointSchema),
});
export type AccountTrend = z.output<typeof accountTrendSchema>;

export const modelShareSchema = usageTotalsSchema.extend({
  model: z.string(),
  /** Share of the range's cost (0 when the range cost nothing). */
  costShare: z.number(),
});
export type ModelShare = z.output<typeof modelShareSchema>;

export const modelsSchema = z.object({ models: z.array(modelShareSchema) });

export const topKeySchema = usageTotalsSchema.extend({
  keyUid: z.string(),
  /** The name in the key's latest record (a key renamed or deleted since keeps it). */
  keyName: z.string(),
  /** Share of the range's cost among all keys (0 when the range cost nothing). */
  costShare: z.number(),
});
export type TopKey = z.output<typeof topKeySchema>;

export const topKeysSchema = z.object({
  from: z.string(),
  to: z.string(),
  keys: z.array(topKeySchema),
});

/** A usage record as listed (the ledger's record has more fields, listed as they are). */
export const usageRecordRowSchema = z.looseObject({
  requestId: z.string(),
  time: z.number(),
  keyName: z.string(),
  model: z.string(),
  upstreamModel: z.string(),
  usage: tokenSumsSchema,
  costNano: z.number(),
  durationMs: z.number(),
  timeToFirstByteMs: z.number().nullable(),
  status: z.number(),
  outcome: outcomeSchema,
  stream: z.boolean(),
  estimated: z.boolean(),
  /** `token_count`: a token-counting call (free; not counted as a request). */
  kind: z.enum(['request', 'token_count']),
});
export type UsageRecordRow = z.output<typeof usageRecordRowSchema>;

export const recordsPageSchema = z.object({
  records: z.array(usageRecordRowSchema),
  nextCursor: z.string().nullable(),
});
export type RecordsPage = z.output<typeof recordsPageSchema>;

/** One plan window on the Account's status: spend, cap and when it closes. */
export const planWindowSchema = z.object({
  name: z.enum(['FiveHour', 'Daily', 'Weekly', 'Monthly']),
  usedUSD: z.string(),
  capUSD: z.string(),
  resetTime: z.string().nullable(),
});
export type PlanWindow = z.output<typeof planWindowSchema>;

export const subscriptionStandingSchema = z.object({
  planName: z.string(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  /** The operator's word (Active, Pending, Expired, PlanNotFound); null before its first report. */
  state: z.string().nullable(),
  windows: z.array(planWindowSchema),
});
export type SubscriptionStanding = z.output<typeof subscriptionStandingSchema>;

export const accountStandingSchema = z.object({
  namespace: z.string(),
  hasAccount: z.boolean(),
  displayName: z.string().nullable(),
  /** Null: no balance limit. */
  creditUSD: z.string().nullable(),
  spentUSD: z.string().nullable(),
  /** credit - spent; null without a credit. */
  balanceUSD: z.string().nullable(),
  /** Fraction of the credit spent, in [0, 1]; null without a credit. */
  spentFraction: z.number().nullable(),
  /** Estimated cost held by requests in flight (store only). */
  reservedUSD: z.string().nullable(),
  inFlight: z.number().nullable(),
  /** Null: unlimited. */
  maxConcurrentRequests: z.number().nullable(),
  /** Where spent and in flight come from. */
  source: z.enum(['store', 'status']),
  /** The subscription (spec) with the operator's last status of its windows; null: none. */
  subscription: subscriptionStandingSchema.nullable(),
});
export type AccountStanding = z.output<typeof accountStandingSchema>;
