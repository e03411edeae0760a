/**
 * Token counts in the ledger, on PGlite and PostgreSQL: listed with kind `token_count` (flagged by
 * the gateway, or without a price version as before the flag), left out of the rollups and
 * totals, and taken out of rollups that counted them before (migration 0005).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../store/usage-buckets.js';
import { TOKEN_COUNT_FLAG } from '../../store/usage-records.js';
import { insertUsageRecords } from '../insert-usage-records.js';
import { readNumber } from '../ledger-database.js';
import { tokenCountsOutOfRollupsMigration } from '../migrations/0005-token-counts-out-of-rollups.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { queryKeySummary } from './key-summary.js';
import { queryRecordsPage } from './records-page.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const free = { usage: emptyUsage(), costNano: 0, accuracy: 'none' as const, stream: false };

describe.each(LEDGER_KINDS)('token counts on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    await insertUsageRecords(ledger.db, [
      makeRecord({ requestId: 'call-1', costNano: 3_000 }),
      makeRecord({ requestId: 'call-2', costNano: 4_000, status: 500 }),
      makeRecord({ requestId: 'count-1', ...free, flags: [TOKEN_COUNT_FLAG], priceVersion: '' }),
      // Written before the flag: told by its empty price version.
      makeRecord({ requestId: 'count-2', ...free, flags: [], priceVersion: '', status: 400 }),
    ]);
  });
  afterAll(() => ledger.drop());

  const summary = () =>
    queryKeySummary(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      now: NOW,
      timeZone: 'UTC',
      days: 1,
    });
  const accountRequests = async () => {
    const rows = await ledger.db.query(
      'SELECT sum(requests)::text AS n FROM usage_rollups_account_hourly',
    );
    return readNumber(rows[0]?.n);
  };

  it('lists them with their kind and leaves them out of the request totals', async () => {
    const page = await queryRecordsPage(ledger.db, { namespace: 'team-a', limit: 10 });
    const kinds = Object.fromEntries(page.records.map((row) => [row.requestId, row.kind]));
    expect(kinds).toEqual({
      'call-1': 'request',
      'call-2': 'request',
      'count-1': 'token_count',
      'count-2': 'token_count',
    });
    const today = (await summary()).today;
    expect({ requests: today.requests, errors: today.errorRequests, cost: today.costNano }).toEqual(
      { requests: 2, errors: 1, cost: 7_000 },
    );
    expect(await accountRequests()).toBe(2);
  });

  it('takes token counts out of rollups that counted them (migration 0005)', async () => {
    // As the insert of before counted them: one more request and error in each rollup.
    await ledger.db.query(
      'UPDATE usage_rollups_hourly SET requests = requests + 2, error_requests = error_requests + 1',
    );
    await ledger.db.query('UPDATE usage_totals SET requests = requests + 2');
    expect((await summary()).today.requests).toBe(4);
    await tokenCountsOutOfRollupsMigration.up(ledger.db.kysely);
    const today = (await summary()).today;
    expect({ requests: today.requests, errors: today.errorRequests }).toEqual({
      requests: 2,
      errors: 1,
    });
    expect(await accountRequests()).toBe(2);
    const totals = await ledger.db.query('SELECT requests::text AS n FROM usage_totals');
    expect(totals.map((row) => readNumber(row.n))).toEqual([2]);
  });
});
