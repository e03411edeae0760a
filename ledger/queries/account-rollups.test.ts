import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../apply-retention.js';
import { insertUsageRecords } from '../insert-usage-records.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.UTC(2026, 2, 20, 15);

/** Sums of each table grouped the same way, as comparable text. */
async function totalsOf(ledger: TestLedger) {
  const account = await ledger.db.query(
    `SELECT namespace, hour, model, requests::text, cost_nano::text, output_tokens::text
     FROM usage_rollups_account_hourly ORDER BY 1, 2, 3`,
  );
  const fromHourly = await ledger.db.query(
    `SELECT namespace, hour, model, sum(requests)::text AS requests,
       sum(cost_nano)::text AS cost_nano, sum(output_tokens)::text AS output_tokens
     FROM usage_rollups_hourly GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  const daily = await ledger.db.query(
    `SELECT namespace, day, key_uid, requests::text, cost_nano::text
     FROM usage_rollups_key_daily ORDER BY 1, 2, 3`,
  );
  const dailyFromHourly = await ledger.db.query(
    `SELECT namespace, date_trunc('day', hour, 'UTC') AS day, key_uid,
       sum(requests)::text AS requests, sum(cost_nano)::text AS cost_nano
     FROM usage_rollups_hourly GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  return { account, fromHourly, daily, dailyFromHourly };
}

describe.each(LEDGER_KINDS)('account and daily rollups on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  it('follow the hourly rollups through new hours, added records and retention', async () => {
    const record = (requestId: string, time: number, keyUid: string, model = 'm-1') =>
      makeRecord({ requestId, time, keyUid, model, costNano: 7 });
    // New hours (inserted rollups), then more records in the same hours (updated rollups).
    await insertUsageRecords(ledger.db, [
      record('r-1', NOW - H, 'k-1'),
      record('r-2', NOW - H, 'k-2'),
      record('r-3', NOW - 100 * D, 'k-1', 'm-2'),
    ]);
    await insertUsageRecords(ledger.db, [
      record('r-4', NOW - H + 60_000, 'k-1'),
      record('r-5', NOW - H + 120_000, 'k-1', 'm-2'),
      record('r-6', NOW - 100 * D + 1, 'k-1', 'm-2'),
    ]);
    // A batch seen before changes nothing, in any table.
    await insertUsageRecords(ledger.db, [record('r-4', NOW - H + 60_000, 'k-1')]);
    const before = await totalsOf(ledger);
    expect(before.account).toEqual(before.fromHourly);
    expect(before.daily).toEqual(before.dailyFromHourly);
    expect(before.account.map((row) => [row.model, row.requests, row.cost_nano])).toEqual([
      ['m-2', '2', '14'],
      ['m-1', '3', '21'],
      ['m-2', '1', '7'],
    ]);

    await applyRetention(ledger.db, { now: NOW, retentionDays: 90 });
    const after = await totalsOf(ledger);
    expect(after.account).toEqual(after.fromHourly);
    expect(after.daily).toEqual(after.dailyFromHourly);
    expect(after.account).toHaveLength(2);
    expect(after.daily.map((row) => [row.key_uid, row.requests])).toEqual([
      ['k-1', '3'],
      ['k-2', '1'],
    ]);
  });
});
