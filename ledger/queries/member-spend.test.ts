import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from '../insert-usage-records.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { queryMemberSpend } from './member-spend.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-28T12:00:00Z');
const NAMESPACE = 'team-members';

describe.each(LEDGER_KINDS)('spend per owner on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    const record = (time: number, costNano: number, owner?: string) =>
      makeRecord({
        requestId: `m-${time}-${owner ?? 'none'}`,
        time,
        namespace: NAMESPACE,
        costNano,
        ...(owner === undefined ? {} : { owner }),
      });
    await insertUsageRecords(ledger.db, [
      record(NOW - 40 * DAY, 1_000, 'alice'),
      record(NOW - 20 * DAY, 100, 'alice'),
      record(NOW - 3 * DAY, 10, 'alice'),
      record(NOW - 3_600_000, 1, 'alice'),
      record(NOW - 3_600_000, 5, 'bob'),
      record(NOW - 3_600_000, 7),
    ]);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  it('sums today, 7 and 30 days per owner, leaving keys without one out', async () => {
    expect(
      await queryMemberSpend(ledger.db, { namespace: NAMESPACE, now: NOW, timeZone: 'UTC' }),
    ).toEqual([
      { owner: 'alice', todayNano: 1, sevenDaysNano: 11, thirtyDaysNano: 111, requests30Days: 3 },
      { owner: 'bob', todayNano: 5, sevenDaysNano: 5, thirtyDaysNano: 5, requests30Days: 1 },
    ]);
  });
});
