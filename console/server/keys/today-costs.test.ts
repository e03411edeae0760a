/**
 * Today's cost of every key of a namespace in one query agrees with each key's own summary (the
 * figure the key page shows), on PostgreSQL and PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from '../../../ledger/insert-usage-records.js';
import type { LedgerRecord } from '../../../ledger/ledger-record.js';
import { queryKeySummary } from '../../../ledger/queries/key-summary.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../../test/support/ledger/make-record.js';
import { queryTodayCosts } from './today-costs.js';

const H = 3_600_000;
// 2026-03-20 15:00 UTC = 11:00 in New York (UTC-4): its day began at 04:00 UTC.
const NOW = Date.UTC(2026, 2, 20, 15);
const ZONE = 'America/New_York';
const KEYS = ['key-1', 'key-2', 'key-3'];

/** Every 20 minutes for two days, round-robin over three keys; one key of another namespace. */
function seedRecords(): LedgerRecord[] {
  const records: LedgerRecord[] = [];
  for (let step = 0; step < 2 * 72; step++) {
    records.push(
      makeRecord({
        requestId: `t-${step}`,
        time: NOW - step * 20 * 60_000,
        keyUid: KEYS[step % 3] ?? 'key-1',
        costNano: 1000 + step,
      }),
    );
  }
  records.push(makeRecord({ requestId: 'other', time: NOW - H, namespace: 'team-b', costNano: 7 }));
  return records;
}

describe.each(LEDGER_KINDS)("today's cost per key on %s", (kind) => {
  let ledger: TestLedger;
  const records = seedRecords();
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    await insertUsageRecords(ledger.db, records);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  it('sums the local day so far per key, as each key summary does', async () => {
    const costs = await queryTodayCosts(ledger.db, {
      namespace: 'team-a',
      now: NOW,
      timeZone: ZONE,
    });
    const todayStart = Date.UTC(2026, 2, 20, 4);
    for (const keyUid of KEYS) {
      const expected = records
        .filter((r) => r.namespace === 'team-a' && r.keyUid === keyUid && r.time >= todayStart)
        .reduce((total, r) => total + r.costNano, 0);
      expect(expected).toBeGreaterThan(0);
      expect(costs.get(keyUid)).toBe(expected);
      const summary = await queryKeySummary(ledger.db, {
        namespace: 'team-a',
        keyUid,
        now: NOW,
        timeZone: ZONE,
        days: 1,
      });
      expect(costs.get(keyUid)).toBe(summary.today.costNano);
    }
    expect([...costs.keys()].sort()).toEqual(KEYS);
  });

  it('leaves out keys without usage today and other namespaces', async () => {
    const tomorrow = await queryTodayCosts(ledger.db, {
      namespace: 'team-a',
      now: NOW + 24 * H,
      timeZone: ZONE,
    });
    expect(tomorrow.size).toBe(0);
    const other = await queryTodayCosts(ledger.db, {
      namespace: 'team-b',
      now: NOW,
      timeZone: ZONE,
    });
    expect(other).toEqual(new Map([['key-1', 7]]));
  });
});
