/** Usage queries on the in-process state, with the Redis store's ordering and paging. */
import { compareAggregates, daysBetween } from './aggregate-metrics.js';
import type { DailyEntry, MemoryState } from './memory-state.js';
import {
  compareNewestFirst,
  cutPage,
  decodeCursor,
  isAfterCursor,
  matchesQuery,
} from './page-usage-records.js';
import type { DailyAggregate, RecordPage, RecordPageQuery } from './usage-records.js';

function collectDaily(
  entries: Iterable<[string, DailyEntry]>,
  accept: (entryKey: string, day: string) => boolean,
  days: ReadonlySet<string>,
): DailyAggregate[] {
  const found: DailyAggregate[] = [];
  for (const [entryKey, entry] of entries) {
    const { day } = entry.aggregate;
    if (days.has(day) && accept(entryKey, day)) found.push(structuredClone(entry.aggregate));
  }
  return found.sort(compareAggregates);
}

export function readKeyDaily(
  state: MemoryState,
  query: { namespace: string; keyUid: string; fromDay: string; toDay: string },
): DailyAggregate[] {
  const ns = state.namespaces.get(query.namespace);
  if (ns === undefined) return [];
  const days = new Set(daysBetween(query.fromDay, query.toDay));
  return collectDaily(ns.keyDaily, (entryKey) => entryKey.startsWith(`${query.keyUid}\t`), days);
}

export function readAccountDaily(
  state: MemoryState,
  query: { namespace: string; fromDay: string; toDay: string },
): DailyAggregate[] {
  const ns = state.namespaces.get(query.namespace);
  if (ns === undefined) return [];
  const days = new Set(daysBetween(query.fromDay, query.toDay));
  return collectDaily(ns.accountDaily, () => true, days);
}

export function readRecordPage(state: MemoryState, query: RecordPageQuery): RecordPage {
  const ns = state.namespaces.get(query.namespace);
  if (ns === undefined) return { records: [], nextCursor: null };
  const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const candidates = [...ns.records.values()]
    .filter((record) => isAfterCursor(record, cursor) && matchesQuery(record, query))
    .sort(compareNewestFirst)
    .map((record) => structuredClone(record));
  return cutPage(candidates, query.limit);
}

export function pruneUsageInState(
  state: MemoryState,
  query: { namespace: string; olderThan: number },
): number {
  const ns = state.namespaces.get(query.namespace);
  if (ns === undefined) return 0;
  let removed = 0;
  for (const [requestId, record] of ns.records) {
    if (record.time < query.olderThan) {
      ns.records.delete(requestId);
      removed += 1;
    }
  }
  for (const entries of [ns.keyDaily, ns.accountDaily]) {
    for (const [entryKey, entry] of entries) {
      if (entry.lastTime < query.olderThan) entries.delete(entryKey);
    }
  }
  return removed;
}
