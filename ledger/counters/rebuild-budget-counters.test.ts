import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from '../insert-usage-records.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { rebuildBudgetCounters } from './rebuild-budget-counters.js';

const H = 3_600_000;
// Saturday 2026-11-28 12:00 in Tokyo (UTC+9).
const NOW = Date.parse('2026-11-28T03:00:00Z');
const NAMESPACE = 'team-budget-rebuild';

describe.each(LEDGER_KINDS)('plan and member windows rebuilt from the ledger on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    const charge = (time: number, costNano: number, owner?: string) =>
      makeRecord({
        requestId: `r-${time}-${owner ?? 'none'}`,
        time,
        chargedAt: time,
        durationMs: 0,
        namespace: NAMESPACE,
        costNano,
        ...(owner === undefined ? {} : { owner }),
      });
    await insertUsageRecords(ledger.db, [
      // Last month (Tokyo): counts in no calendar window.
      charge(Date.parse('2026-10-31T14:00:00Z'), 1_000, 'alice'),
      // This month, before this week (Monday 2026-11-23 00:00 Tokyo = 11-22T15:00Z).
      charge(Date.parse('2026-11-20T00:00:00Z'), 100, 'alice'),
      // This week, before today (2026-11-28 00:00 Tokyo = 11-27T15:00Z).
      charge(Date.parse('2026-11-25T00:00:00Z'), 10, 'alice'),
      // Today, two hours ago: alice, bob and a key without an owner.
      charge(NOW - 2 * H, 1, 'alice'),
      charge(NOW - 2 * H + 1, 5, 'bob'),
      charge(NOW - 2 * H + 2, 7),
    ]);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  it('sums each calendar window per owner and for the plan, in the time zone', async () => {
    const rebuilt = await rebuildBudgetCounters(ledger.db, {
      namespace: NAMESPACE,
      now: NOW,
      timeZone: 'Asia/Tokyo',
      plan: true,
      members: true,
    });
    const dayEnd = Date.parse('2026-11-28T15:00:00Z');
    const weekEnd = Date.parse('2026-11-29T15:00:00Z');
    const monthEnd = Date.parse('2026-11-30T15:00:00Z');
    expect(rebuilt.members).toEqual([
      {
        owner: 'alice',
        windows: [
          { name: 'Daily', usedNano: 1, end: dayEnd },
          { name: 'Weekly', usedNano: 11, end: weekEnd },
          { name: 'Monthly', usedNano: 111, end: monthEnd },
        ],
      },
      {
        owner: 'bob',
        windows: [
          { name: 'Daily', usedNano: 5, end: dayEnd },
          { name: 'Weekly', usedNano: 5, end: weekEnd },
          { name: 'Monthly', usedNano: 5, end: monthEnd },
        ],
      },
    ]);
    expect(rebuilt.plan).toEqual([
      { name: 'FiveHour', usedNano: 13, end: NOW - 2 * H + 5 * H },
      { name: 'Daily', usedNano: 13, end: dayEnd },
      { name: 'Weekly', usedNano: 23, end: weekEnd },
      { name: 'Monthly', usedNano: 123, end: monthEnd },
    ]);
  });
});
