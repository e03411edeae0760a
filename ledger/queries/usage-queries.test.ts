import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from '../insert-usage-records.js';
import type { LedgerRecord } from '../ledger-record.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { queryAccountTrend, queryModelDistribution } from './account-trend.js';
import { csvField, exportRecordsCsv } from './export-records-csv.js';
import { queryKeySummary } from './key-summary.js';
import { queryRecordsPage, type LedgerRow } from './records-page.js';

const H = 3_600_000;
// 2026-03-20 15:00 UTC = 11:00 in New York (UTC-4).
const NOW = Date.UTC(2026, 2, 20, 15);
const ZONE = 'America/New_York';

/** Two records per hour for 40 days, alternating keys and models, plus a few special ones. */
function seedRecords(): LedgerRecord[] {
  const records: LedgerRecord[] = [];
  for (let hour = 0; hour < 40 * 24; hour++) {
    for (let slot = 0; slot < 2; slot++) {
      const time = NOW - hour * H - slot * 60_000 - 1;
      records.push(
        makeRecord({
          requestId: `q-${hour}-${slot}`,
          time,
          keyUid: slot === 0 ? 'key-1' : 'key-2',
          model: hour % 3 === 0 ? 'claude-opus-4-1' : 'claude-sonnet-4-5',
          costNano: 1000 + slot,
          status: hour % 10 === 0 ? 429 : 200,
        }),
      );
    }
  }
  records.push(
    makeRecord({
      requestId: 'q-tricky',
      time: NOW - 30 * 60_000,
      keyUid: 'key-1',
      keyName: '=HYPERLINK("x"), "quoted"',
      model: 'model,with\ncomma',
      costNano: 5,
    }),
  );
  return records;
}

describe.each(LEDGER_KINDS)('usage queries on %s', (kind) => {
  let ledger: TestLedger;
  const records = seedRecords();
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    for (let start = 0; start < records.length; start += 500) {
      await insertUsageRecords(ledger.db, records.slice(start, start + 500));
    }
  });
  afterAll(async () => {
    await ledger.drop();
  });

  const sum = (list: LedgerRecord[]) => list.reduce((total, record) => total + record.costNano, 0);

  it('summarises a key: today, 30 local days with a daily breakdown, quota consumption', async () => {
    const summary = await queryKeySummary(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      now: NOW,
      timeZone: ZONE,
      quota: { limitNano: 100_000, since: NOW - 5 * H - 30 * 60_000 },
    });
    const key1 = records.filter((record) => record.keyUid === 'key-1');
    // New York's 20 March began at 04:00 UTC; 30 days back is 19 February 05:00 UTC (winter time).
    const todayStart = Date.UTC(2026, 2, 20, 4);
    const firstDay = Date.UTC(2026, 1, 19, 5);
    const inRange = (from: number) => key1.filter((r) => r.time >= from && r.time <= NOW);
    expect(summary.daily).toHaveLength(30);
    expect(summary.daily[0]!.day).toBe('2026-02-19');
    expect(summary.daily.at(-1)!.day).toBe('2026-03-20');
    expect(summary.today.requests).toBe(inRange(todayStart).length);
    expect(summary.today.costNano).toBe(sum(inRange(todayStart)));
    expect(summary.lastDays.requests).toBe(inRange(firstDay).length);
    expect(summary.lastDays.tokens.output).toBe(inRange(firstDay).length * 50);
    expect(summary.daily.reduce((total, day) => total + day.costNano, 0)).toBe(
      sum(inRange(firstDay)),
    );
    const since = NOW - 5 * H - 30 * 60_000;
    const used = sum(key1.filter((record) => record.time >= since));
    expect(summary.quota).toEqual({
      limitNano: 100_000,
      usedNano: used,
      remainingNano: 100_000 - used,
      fraction: used / 100_000,
    });
  });

  it('draws an account trend by hour and by local day, and the model distribution', async () => {
    const from = Date.UTC(2026, 2, 18, 4);
    const to = Date.UTC(2026, 2, 20, 4);
    const byDay = await queryAccountTrend(ledger.db, {
      namespace: 'team-a',
      from,
      to,
      bucket: 'day',
      timeZone: ZONE,
    });
    expect(byDay.map((point) => [point.label, point.start])).toEqual([
      ['2026-03-18', from],
      ['2026-03-19', from + 24 * H],
    ]);
    expect(byDay.map((point) => point.requests)).toEqual([48, 48]);
    const inRange = records.filter((record) => record.time >= from && record.time < to);
    expect(byDay[0]!.errorRequests + byDay[1]!.errorRequests).toBe(
      inRange.filter((record) => record.status !== 200).length,
    );
    const byHour = await queryAccountTrend(ledger.db, {
      namespace: 'team-a',
      from,
      to,
      bucket: 'hour',
      timeZone: ZONE,
    });
    expect(byHour).toHaveLength(48);
    expect(byHour[0]!.label).toBe('2026-03-18T00:00');
    expect(byHour.reduce((total, point) => total + point.costNano, 0)).toBe(sum(inRange));

    const models = await queryModelDistribution(ledger.db, { namespace: 'team-a', from, to });
    expect(models.map((model) => model.model)).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
    expect(models[0]!.requests + models[1]!.requests).toBe(inRange.length);
    expect(models[0]!.costShare + models[1]!.costShare).toBeCloseTo(1, 10);
    const oneKey = await queryModelDistribution(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-2',
      from,
      to,
    });
    expect(oneKey.reduce((total, model) => total + model.requests, 0)).toBe(48);
  });

  it('pages through filtered records with a stable keyset cursor', async () => {
    const filter = {
      namespace: 'team-a',
      keyUid: 'key-2',
      model: 'claude-sonnet-4-5',
      from: NOW - 3 * 24 * H,
      to: NOW,
      outcome: 'success' as const,
    };
    const seen: LedgerRow[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await queryRecordsPage(ledger.db, {
        ...filter,
        limit: 7,
        ...(cursor === undefined ? {} : { cursor }),
      });
      if (pages === 0) {
        // A record arriving while paging does not shift later pages.
        await insertUsageRecords(ledger.db, [
          makeRecord({ requestId: 'q-late', time: NOW - 1000, keyUid: 'key-2' }),
        ]);
      }
      seen.push(...page.records);
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    const expected = records
      .filter(
        (r) =>
          r.keyUid === 'key-2' &&
          r.model === 'claude-sonnet-4-5' &&
          r.status === 200 &&
          r.time >= filter.from &&
          r.time < filter.to,
      )
      .sort((a, b) => b.time - a.time || (a.requestId < b.requestId ? 1 : -1));
    expect(seen.map((row) => row.requestId)).toEqual(expected.map((r) => r.requestId));
    expect(pages).toBe(Math.ceil(expected.length / 7));
    expect(seen[0]).toMatchObject({ outcome: 'success', estimated: false, multiplier: '1' });
    await expect(
      queryRecordsPage(ledger.db, { namespace: 'team-a', limit: 5, cursor: 'bm90IGEgY3Vyc29y' }),
    ).rejects.toThrow(RangeError);
  });

  it('exports matching records as CSV with escaping', async () => {
    const lines: string[] = [];
    for await (const line of exportRecordsCsv(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      from: NOW - 2 * H,
      pageSize: 2,
    })) {
      lines.push(line);
    }
    expect(lines[0]!.startsWith('time,request_id,charged_at,namespace')).toBe(true);
    // Two hourly records plus the tricky one.
    expect(lines).toHaveLength(4);
    const tricky = lines.find((line) => line.includes('q-tricky'))!;
    expect(tricky).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(tricky).toContain('"model,with\ncomma"');
    expect(lines.every((line) => line.endsWith('\r\n'))).toBe(true);
    expect(csvField('-1+1')).toBe("'-1+1");
    expect(csvField(null)).toBe('');
  });
});
