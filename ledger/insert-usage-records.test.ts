import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from './apply-retention.js';
import { insertUsageRecords } from './insert-usage-records.js';
import { readNumber } from './ledger-database.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../test/support/ledger/make-record.js';
import { migrateLedger } from './migrate-ledger.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

describe.each(LEDGER_KINDS)('usage records on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  const count = async (sql: string) =>
    readNumber((await ledger.db.query<{ n: unknown }>(sql))[0]?.n);

  it('inserts a batch once: a retried batch and repeated ids change nothing', async () => {
    const batch = [
      makeRecord({ requestId: 'a-1', time: T0 }),
      makeRecord({ requestId: 'a-2', time: T0 + 10 * 60_000, accuracy: 'estimated' }),
      makeRecord({ requestId: 'a-3', time: T0 + DAY, model: 'claude-haiku-4-5', status: 529 }),
      makeRecord({ requestId: 'a-1', time: T0 }),
    ];
    expect(await insertUsageRecords(ledger.db, batch)).toBe(3);
    expect(await insertUsageRecords(ledger.db, batch)).toBe(0);
    // The same request id with another time (a late duplicate) is refused too.
    expect(
      await insertUsageRecords(ledger.db, [makeRecord({ requestId: 'a-2', time: T0 + 5 * DAY })]),
    ).toBe(0);
    expect(await count('SELECT count(*) AS n FROM usage_records')).toBe(3);
    const rows = await ledger.db.query<{ estimated: boolean; outcome: string; flags: string[] }>(
      'SELECT estimated, outcome, flags FROM usage_records ORDER BY request_id',
    );
    expect(rows.map((row) => [row.estimated, row.outcome])).toEqual([
      [false, 'success'],
      [true, 'success'],
      [false, 'server_error'],
    ]);
    const totals = await ledger.db.query<{ requests: unknown; cost_nano: unknown }>(
      'SELECT requests, cost_nano FROM usage_totals',
    );
    expect(totals.map((row) => [readNumber(row.requests), readNumber(row.cost_nano)])).toEqual([
      [3, 3_000_000],
    ]);
  });

  it('keeps the sums in the hourly rollups equal to the records', async () => {
    const batches = Array.from({ length: 5 }, (_, batch) =>
      Array.from({ length: 40 }, (_, index) =>
        makeRecord({
          requestId: `r-${batch}-${index}`,
          time: T0 + (batch * 40 + index) * 7 * 60_000,
          keyUid: `key-${index % 3}`,
          model: index % 2 === 0 ? 'claude-sonnet-4-5' : 'claude-opus-4-1',
          costNano: 1000 + index * 17,
          usage: {
            inputUncached: index,
            cacheRead: 2 * index,
            cacheWrite5m: 3,
            cacheWrite1h: index % 5,
            output: 7 * index,
            reasoning: index,
          },
          status: index % 7 === 0 ? 429 : 200,
        }),
      ),
    );
    for (const batch of batches) await insertUsageRecords(ledger.db, batch);
    // A retry of an earlier batch overlapping new records adds only the new ones.
    await insertUsageRecords(ledger.db, [...batches[0]!, makeRecord({ requestId: 'r-extra' })]);
    const sums = `sum(input_uncached_tokens)::text, sum(cache_read_tokens)::text,
      sum(cache_write_5m_tokens)::text, sum(cache_write_1h_tokens)::text,
      sum(output_tokens)::text, sum(reasoning_tokens)::text, sum(cost_nano)::text,
      sum(duration_ms)::text`;
    const fromRecords = await ledger.db.query(
      `SELECT namespace, key_uid, date_trunc('hour', time, 'UTC') AS hour, model,
         count(*)::text AS requests,
         count(*) FILTER (WHERE outcome <> 'success')::text AS errors, ${sums}
       FROM usage_records GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    const fromRollups = await ledger.db.query(
      `SELECT namespace, key_uid, hour, model, sum(requests)::text AS requests,
         sum(error_requests)::text AS errors, ${sums}
       FROM usage_rollups_hourly GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    expect(fromRollups.length).toBeGreaterThan(20);
    expect(fromRollups).toEqual(fromRecords);
  });

  it('creates daily partitions on demand and drops them with their rollups by retention', async () => {
    const old = Date.UTC(2025, 9, 1, 12);
    await insertUsageRecords(ledger.db, [
      makeRecord({ requestId: 'old-1', time: old }),
      makeRecord({ requestId: 'old-2', time: old + DAY }),
    ]);
    const partitions = async () =>
      (
        await ledger.db.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'usage_records'::regclass ORDER BY 1`,
        )
      ).map((row) => row.name);
    expect(await partitions()).toEqual(
      expect.arrayContaining(['usage_records_p20251001', 'usage_records_p20251002']),
    );
    // 90 days before 2025-12-31 12:00 is 2025-10-02: the 1 October partition goes, 2 October stays.
    const dropped = await applyRetention(ledger.db, {
      now: Date.UTC(2025, 11, 31, 12),
      retentionDays: 90,
    });
    expect(dropped).toBe(1);
    expect(await partitions()).not.toContain('usage_records_p20251001');
    expect(await partitions()).toContain('usage_records_p20251002');
    expect(
      await count(`SELECT count(*) AS n FROM usage_records WHERE request_id LIKE 'old-%'`),
    ).toBe(1);
    expect(
      await count(`SELECT count(*) AS n FROM usage_rollups_hourly WHERE hour < '2025-10-02Z'`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM usage_record_ids WHERE request_id = 'old-1'`),
    ).toBe(0);
    // The account's lifetime spend survives retention.
    expect(await count(`SELECT sum(cost_nano) AS n FROM usage_totals`)).toBe(
      (await count(`SELECT sum(cost_nano) AS n FROM usage_records`)) + 1_000_000,
    );
    // A record for a dropped day recreates its partition instead of failing the batch.
    expect(
      await insertUsageRecords(ledger.db, [makeRecord({ requestId: 'old-3', time: old })]),
    ).toBe(1);
  });

  it('applies migrations once when migrated again', async () => {
    expect(await migrateLedger(ledger.db)).toEqual([]);
  });
});
