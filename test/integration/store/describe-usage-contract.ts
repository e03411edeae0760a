/** Contract: usage records, daily aggregates equal to the sum of records, paging and pruning. */
import { describe, expect, it } from 'vitest';
import type { DailyAggregate, UsageRecord } from '../../../store/usage-records.js';
import type { StoreHolder } from './describe-store-contract.js';
import { settlement, tenant } from './store-fixtures.js';

const DAY = 86_400_000;

function sumRecords(records: readonly UsageRecord[], day: string, model: string): DailyAggregate {
  const aggregate: DailyAggregate = {
    day,
    model,
    requests: records.length,
    usage: {
      inputUncached: 0,
      cacheRead: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 0,
      reasoning: 0,
    },
    costNano: 0,
    durationMs: 0,
  };
  for (const record of records) {
    aggregate.costNano += record.costNano;
    aggregate.durationMs += record.durationMs;
    for (const bucket of Object.keys(aggregate.usage) as (keyof DailyAggregate['usage'])[]) {
      aggregate.usage[bucket] += record.usage[bucket];
    }
  }
  return aggregate;
}

/** Settles `count` requests spread over two keys, two models and two days; returns the records. */
async function settleMany(
  holder: StoreHolder,
  who: { namespace: string; keyUid: string },
  start: number,
): Promise<UsageRecord[]> {
  const records: UsageRecord[] = [];
  for (let index = 0; index < 12; index++) {
    const keyUid = index % 3 === 0 ? 'second-key' : who.keyUid;
    const model = index % 2 === 0 ? 'claude-opus-4-1' : 'claude-haiku-4-5';
    const day = index < 8 ? '2026-11-20' : '2026-11-21';
    // Pairs of records share a time, so paging must order ties by request id.
    const time = start + Math.floor(index / 2) * 1_000 + (index < 8 ? 0 : DAY);
    const request = settlement(
      { namespace: who.namespace, keyUid, now: time },
      { costNano: 100 + index, day },
      {
        model,
        durationMs: 10 * index,
        usage: {
          inputUncached: index,
          cacheRead: 2 * index,
          cacheWrite5m: 3,
          cacheWrite1h: 1,
          output: 5 + index,
          reasoning: 1,
        },
      },
    );
    expect((await holder.store.settle(request)).applied).toBe(true);
    records.push(request.record);
  }
  return records;
}

function compareText(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

function expectedDaily(records: readonly UsageRecord[], start: number): DailyAggregate[] {
  const groups = new Map<string, UsageRecord[]>();
  for (const record of records) {
    const day = record.time >= start + DAY ? '2026-11-21' : '2026-11-20';
    const key = `${day}\t${record.model}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  return [...groups.entries()]
    .map(([key, group]) => sumRecords(group, key.split('\t')[0]!, key.split('\t')[1]!))
    .sort(
      (left, right) => compareText(left.day, right.day) || compareText(left.model, right.model),
    );
}

export function describeUsageContract(holder: StoreHolder): void {
  describe('usage records and aggregates', () => {
    it('keeps per-key and per-account daily aggregates equal to the sum of the records', async () => {
      const who = await tenant(holder.store);
      const start = Date.UTC(2026, 10, 20, 8);
      const records = await settleMany(holder, who, start);
      const { store } = holder;
      const account = await store.accountDaily(who.namespace, '2026-11-19', '2026-11-22');
      expect(account).toEqual(expectedDaily(records, start));
      const own = records.filter((record) => record.keyUid === who.keyUid);
      const keyDaily = await store.keyDaily(who.namespace, who.keyUid, '2026-11-20', '2026-11-21');
      expect(keyDaily).toEqual(expectedDaily(own, start));
      const oneDay = await store.keyDaily(who.namespace, who.keyUid, '2026-11-21', '2026-11-21');
      expect(oneDay.every((entry) => entry.day === '2026-11-21')).toBe(true);
      expect(await store.accountDaily(who.namespace, '2026-12-01', '2026-12-31')).toEqual([]);
    });

    it('pages records newest first with filters and a cursor, without gaps or repeats', async () => {
      const who = await tenant(holder.store);
      const start = Date.UTC(2026, 10, 20, 8);
      const records = await settleMany(holder, who, start);
      const newestFirst = [...records].sort((left, right) =>
        left.time === right.time
          ? compareText(right.requestId, left.requestId)
          : right.time - left.time,
      );
      const readAll = async (query: {
        keyUid?: string;
        model?: string;
        fromTime?: number;
        toTime?: number;
      }) => {
        const seen: UsageRecord[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const page = await holder.store.records({
            namespace: who.namespace,
            limit: 3,
            ...query,
            ...(cursor !== undefined ? { cursor } : {}),
          });
          expect(page.records.length).toBeLessThanOrEqual(3);
          seen.push(...page.records);
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
        }
        return seen.map((record) => record.requestId);
      };
      expect(await readAll({})).toEqual(newestFirst.map((record) => record.requestId));
      const first = await holder.store.records({ namespace: who.namespace, limit: 1 });
      expect(first.records[0]).toEqual(newestFirst[0]);
      expect(await readAll({ keyUid: who.keyUid })).toEqual(
        newestFirst
          .filter((record) => record.keyUid === who.keyUid)
          .map((record) => record.requestId),
      );
      expect(await readAll({ model: 'claude-haiku-4-5', keyUid: who.keyUid })).toEqual(
        newestFirst
          .filter((record) => record.keyUid === who.keyUid && record.model === 'claude-haiku-4-5')
          .map((record) => record.requestId),
      );
      const window = { fromTime: start + 1_000, toTime: start + 3_000 };
      expect(await readAll(window)).toEqual(
        newestFirst
          .filter((record) => record.time >= window.fromTime && record.time < window.toTime)
          .map((record) => record.requestId),
      );
    });

    it('prunes records and aggregates older than the retention', async () => {
      const who = await tenant(holder.store);
      const start = Date.UTC(2026, 10, 20, 8);
      const records = await settleMany(holder, who, start);
      const removed = await holder.store.pruneUsage(who.namespace, start + DAY - 1);
      expect(removed).toBe(8);
      const left = await holder.store.records({ namespace: who.namespace, limit: 100 });
      expect(left.records.map((record) => record.requestId).sort()).toEqual(
        records
          .slice(8)
          .map((record) => record.requestId)
          .sort(),
      );
      const keyLeft = await holder.store.records({
        namespace: who.namespace,
        keyUid: 'second-key',
        limit: 100,
      });
      expect(keyLeft.records.every((record) => record.time >= start + DAY)).toBe(true);
      const daily = await holder.store.accountDaily(who.namespace, '2026-11-19', '2026-11-22');
      expect(daily.map((entry) => entry.day)).toEqual(['2026-11-21', '2026-11-21']);
    });
  });
}
