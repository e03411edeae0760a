/**
 * The usage queries (the ledger through /accounts/{ns}/usage/…): the account's trend, models, top
 * keys and standing, a key's models and records, and one record with its capture. Pages add their
 * own refresh options; every key is made here.
 */
import { queryOptions } from '@tanstack/react-query';
import { usageApi, type RecordFilter, type RecordRef } from '../api/usage-api.js';

/** A range of ISO date-times. */
export interface UsageRange {
  from: string;
  to: string;
}

export const usageKeys = {
  trend: (namespace: string, range: UsageRange & { bucket: 'hour' | 'day' }) =>
    ['usage-trend', namespace, range.bucket, range.from, range.to] as const,
  models: (namespace: string, range: UsageRange) =>
    ['usage-models', namespace, range.from, range.to] as const,
  topKeys: (namespace: string, range: UsageRange) =>
    ['top-keys', namespace, range.from, range.to] as const,
  standing: (namespace: string) => ['account-standing', namespace] as const,
  keyModels: (ref: { namespace: string; name: string }) =>
    ['key-models', ref.namespace, ref.name] as const,
  records: (namespace: string, page: { filter: RecordFilter; limit: number; cursor?: string }) =>
    ['key-records', namespace, page.filter, page.limit, page.cursor] as const,
  record: (ref: RecordRef) => ['key-record', ref.namespace, ref.name, ref.requestId] as const,
  capture: (ref: RecordRef) => ['key-capture', ref.namespace, ref.name, ref.requestId] as const,
};

export const usageQueries = {
  trend: (namespace: string, range: UsageRange & { bucket: 'hour' | 'day' }) =>
    queryOptions({
      queryKey: usageKeys.trend(namespace, range),
      queryFn: () => usageApi.trend({ namespace, ...range }),
    }),
  models: (namespace: string, range: UsageRange) =>
    queryOptions({
      queryKey: usageKeys.models(namespace, range),
      queryFn: () => usageApi.models({ namespace, ...range }),
    }),
  topKeys: (namespace: string, range: UsageRange) =>
    queryOptions({
      queryKey: usageKeys.topKeys(namespace, range),
      queryFn: () => usageApi.topKeys({ namespace, ...range, limit: 10 }),
    }),
  standing: (namespace: string) =>
    queryOptions({
      queryKey: usageKeys.standing(namespace),
      queryFn: () => usageApi.standing(namespace),
    }),
  /** A key's models over the last 90 days (the records page's model filter). */
  keyModels: (ref: { namespace: string; name: string }) =>
    queryOptions({
      queryKey: usageKeys.keyModels(ref),
      queryFn: () =>
        usageApi.models({
          namespace: ref.namespace,
          key: ref.name,
          from: new Date(Date.now() - 90 * 86_400_000).toISOString(),
          to: new Date(Date.now() + 3_600_000).toISOString(),
        }),
    }),
  records: (namespace: string, page: { filter: RecordFilter; limit: number; cursor?: string }) =>
    queryOptions({
      queryKey: usageKeys.records(namespace, page),
      queryFn: () =>
        usageApi.records({
          namespace,
          filter: page.filter,
          limit: page.limit,
          ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
        }),
    }),
  record: (ref: RecordRef) =>
    queryOptions({
      queryKey: usageKeys.record(ref),
      queryFn: () => usageApi.record(ref),
      staleTime: Infinity,
    }),
  /** A record's captured bodies (never change once written; 403 and 404 are not retried). */
  capture: (ref: RecordRef) =>
    queryOptions({
      queryKey: usageKeys.capture(ref),
      queryFn: () => usageApi.capture(ref),
      staleTime: Infinity,
    }),
};
