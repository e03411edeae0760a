/**
 * Usage queries on Redis: daily aggregates are one hash per key (or account) and day with fields
 * `<model> TAB <metric>`; records are a ZSET by time plus a hash of JSON by request id, with a
 * per-key ZSET for key-filtered pages. Reads only; the prune is a script.
 */
import {
  addToAggregate,
  compareAggregates,
  daysBetween,
  emptyAggregate,
  isAggregateMetric,
} from './aggregate-metrics.js';
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import type { RunScript } from './define-store-scripts.js';
import { cutPage, decodeCursor, isAfterCursor, matchesQuery } from './page-usage-records.js';
import type { RedisKeyNames } from './redis-key-names.js';
import type {
  DailyAggregate,
  RecordPageQuery,
  UsageQueries,
  UsageRecord,
} from './usage-records.js';

const PAGE_SCAN_BATCH = 200;

async function readDaily(
  client: RedisClient,
  keyForDay: (day: string) => string,
  days: readonly string[],
): Promise<DailyAggregate[]> {
  const pipeline = client.pipeline();
  for (const day of days) pipeline.hgetall(keyForDay(day));
  const replies = (await pipeline.exec()) ?? [];
  const aggregates: DailyAggregate[] = [];
  replies.forEach(([error, value], index) => {
    if (error) throw error;
    const day = days[index] ?? '';
    const byModel = new Map<string, DailyAggregate>();
    for (const [field, text] of Object.entries(value as Record<string, string>)) {
      const tab = field.lastIndexOf('\t');
      const model = field.slice(0, tab);
      const metric = field.slice(tab + 1);
      if (!isAggregateMetric(metric)) continue;
      const aggregate = byModel.get(model) ?? emptyAggregate(day, model);
      byModel.set(model, aggregate);
      addToAggregate(aggregate, metric, Number(text));
    }
    aggregates.push(...byModel.values());
  });
  return aggregates.sort(compareAggregates);
}

async function readPage(
  client: RedisClient,
  names: RedisKeyNames,
  query: RecordPageQuery,
): Promise<{ records: UsageRecord[]; nextCursor: string | null }> {
  const ns = names.namespace(query.namespace);
  const index = query.keyUid === undefined ? ns.records : ns.keyRecords(query.keyUid);
  const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const max =
    cursor !== null
      ? String(cursor.time)
      : query.toTime !== undefined
        ? `(${query.toTime}`
        : '+inf';
  const min = query.fromTime !== undefined ? String(query.fromTime) : '-inf';
  const found: UsageRecord[] = [];
  for (let offset = 0; found.length <= query.limit; offset += PAGE_SCAN_BATCH) {
    const batch = await client.zrange(
      index,
      max,
      min,
      'BYSCORE',
      'REV',
      'LIMIT',
      offset,
      PAGE_SCAN_BATCH,
    );
    if (batch.length === 0) break;
    const texts = await client.hmget(ns.recordData, ...batch);
    for (const text of texts) {
      if (text === null) continue;
      const record = JSON.parse(text) as UsageRecord;
      if (isAfterCursor(record, cursor) && matchesQuery(record, query)) found.push(record);
    }
    if (batch.length < PAGE_SCAN_BATCH) break;
  }
  return cutPage(found, query.limit);
}

export function createRedisUsageStore(options: {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
}): UsageQueries {
  const { client, names, runScript } = options;
  return {
    // eslint-disable-next-line max-params -- the contract's signature (usage-records.ts)
    keyDaily: (namespace, keyUid, fromDay, toDay) =>
      guardRedis(() => {
        const ns = names.namespace(namespace);
        return readDaily(client, (day) => ns.keyDaily(keyUid, day), daysBetween(fromDay, toDay));
      }),
    accountDaily: (namespace, fromDay, toDay) =>
      guardRedis(() => {
        const ns = names.namespace(namespace);
        return readDaily(client, (day) => ns.accountDaily(day), daysBetween(fromDay, toDay));
      }),
    records: (query) => guardRedis(() => readPage(client, names, query)),
    pruneUsage: (namespace, olderThan) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        const keys = [ns.records, ns.recordData, ns.aggregateIndex];
        return Number(await runScript('tollgatePruneUsage', keys, [ns.base, olderThan]));
      }),
  };
}
