import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from './apply-retention.js';
import { insertCapturedCalls } from './insert-captured-calls.js';
import { insertUsageRecords } from './insert-usage-records.js';
import { readNumber } from './ledger-database.js';
import { exportRecordsCsv } from './queries/export-records-csv.js';
import { readCapturedCall } from './queries/read-captured-call.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../test/support/ledger/ledger-test-databases.js';
import { makeCapturedCall } from '../test/support/ledger/make-captured-call.js';
import { makeRecord } from '../test/support/ledger/make-record.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

describe.each(LEDGER_KINDS)('captured calls on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  const count = async (sql: string) =>
    readNumber((await ledger.db.query<{ n: unknown }>(sql))[0]?.n);
  const partitions = async () =>
    (
      await ledger.db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'captured_calls'::regclass ORDER BY 1`,
      )
    ).map((row) => row.name);

  it('stores each request once, in the partition of the day it expires, and reads it back', async () => {
    const batch = [
      makeCapturedCall({ requestId: 'c-1' }),
      makeCapturedCall({ requestId: 'c-2', expiresAt: T0 + 30 * DAY, response: null }),
      makeCapturedCall({ requestId: 'c-1' }),
    ];
    expect(await insertCapturedCalls(ledger.db, { calls: batch, now: T0 })).toEqual({
      inserted: 2,
      expired: 0,
    });
    // A retried batch, and the same request id with another expiry, change nothing.
    expect(await insertCapturedCalls(ledger.db, { calls: batch, now: T0 })).toEqual({
      inserted: 0,
      expired: 0,
    });
    expect(
      await insertCapturedCalls(ledger.db, {
        calls: [makeCapturedCall({ requestId: 'c-2', expiresAt: T0 + 3 * DAY })],
        now: T0,
      }),
    ).toEqual({ inserted: 0, expired: 0 });
    expect(await count('SELECT count(*) AS n FROM captured_calls')).toBe(2);
    const placed = await ledger.db.query<{ id: string; partition: string }>(
      'SELECT request_id AS id, tableoid::regclass::text AS partition FROM captured_calls ORDER BY 1',
    );
    expect(placed).toEqual([
      { id: 'c-1', partition: 'captured_calls_p20260122' },
      { id: 'c-2', partition: 'captured_calls_p20260214' },
    ]);

    const read = await readCapturedCall(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      requestId: 'c-1',
      now: T0,
    });
    expect(read).toEqual(makeCapturedCall({ requestId: 'c-1' }));
    const noResponse = await readCapturedCall(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      requestId: 'c-2',
      now: T0,
    });
    expect(noResponse?.response).toBeNull();
    expect(noResponse?.request?.redactions).toEqual([{ kind: 'anthropic-key', count: 1 }]);
  });

  it('reads a capture only for its own namespace and key, and not after it expired', async () => {
    const query = { namespace: 'team-a', keyUid: 'key-1', requestId: 'c-1', now: T0 };
    expect(await readCapturedCall(ledger.db, { ...query, namespace: 'team-b' })).toBeNull();
    expect(await readCapturedCall(ledger.db, { ...query, keyUid: 'key-2' })).toBeNull();
    expect(await readCapturedCall(ledger.db, { ...query, requestId: 'c-9' })).toBeNull();
    expect(await readCapturedCall(ledger.db, { ...query, now: T0 + 7 * DAY })).toBeNull();
    expect(await readCapturedCall(ledger.db, { ...query, now: T0 + 7 * DAY - 1 })).not.toBeNull();
  });

  it('keeps a NUL character from failing the batch, and skips captures expired on arrival', async () => {
    const nul = makeCapturedCall({
      requestId: 'c-nul',
      request: {
        text: 'a\u0000b',
        bytes: 3,
        truncated: true,
        contentType: 'text/plain',
        redactions: [],
      },
    });
    const stale = makeCapturedCall({ requestId: 'c-stale', expiresAt: T0 - 1 });
    expect(await insertCapturedCalls(ledger.db, { calls: [nul, stale], now: T0 })).toEqual({
      inserted: 1,
      expired: 1,
    });
    const read = await readCapturedCall(ledger.db, {
      namespace: 'team-a',
      keyUid: 'key-1',
      requestId: 'c-nul',
      now: T0,
    });
    expect(read?.request).toEqual({ ...nul.request, text: 'a\uFFFDb' });
    expect(
      await count(`SELECT count(*) AS n FROM captured_calls WHERE request_id = 'c-stale'`),
    ).toBe(0);
  });

  it('never puts a body in the CSV export of the records', async () => {
    const secret = 'captured-body-marker-7f3a';
    await insertUsageRecords(ledger.db, [makeRecord({ requestId: 'c-csv', time: T0 })]);
    await insertCapturedCalls(ledger.db, {
      calls: [
        makeCapturedCall({
          requestId: 'c-csv',
          request: {
            text: secret,
            bytes: 25,
            truncated: false,
            contentType: 'text/plain',
            redactions: [],
          },
          response: {
            text: `${secret}-reply`,
            bytes: 31,
            truncated: false,
            contentType: 'text/plain',
            redactions: [],
          },
        }),
      ],
      now: T0,
    });
    // The capture is there and readable, and the record is in the export...
    expect(
      (
        await readCapturedCall(ledger.db, {
          namespace: 'team-a',
          keyUid: 'key-1',
          requestId: 'c-csv',
          now: T0,
        })
      )?.request?.text,
    ).toBe(secret);
    let csv = '';
    for await (const line of exportRecordsCsv(ledger.db, { namespace: 'team-a' })) csv += line;
    expect(csv).toContain('c-csv');
    // ...but no body, and no column for one.
    expect(csv).not.toContain(secret);
    expect(csv.split('\r\n')[0]).not.toMatch(/body|capture|request_text|response_text/);
  });

  it('drops the captures that expired with the retention step, whatever their retention days', async () => {
    // Captures of one day with retention of 1, 3 and 10 days: expiring 16, 18 and 25 January.
    await insertCapturedCalls(ledger.db, {
      calls: [1, 3, 10].map((days) =>
        makeCapturedCall({
          requestId: `r-${days}`,
          namespace: 'team-r',
          expiresAt: T0 + days * DAY,
        }),
      ),
      now: T0,
    });
    const kept = async () =>
      (
        await ledger.db.query<{ id: string }>(
          `SELECT request_id AS id FROM captured_calls WHERE namespace = 'team-r' ORDER BY 1`,
        )
      ).map((row) => row.id);
    expect(await kept()).toEqual(['r-1', 'r-10', 'r-3']);
    // 19 January: the 1- and 3-day captures have expired; the record retention (90 days) keeps
    // every usage record.
    await applyRetention(ledger.db, { now: Date.UTC(2026, 0, 19, 0, 30), retentionDays: 90 });
    expect(await kept()).toEqual(['r-10']);
    expect(await partitions()).not.toContain('captured_calls_p20260116');
    expect(await partitions()).not.toContain('captured_calls_p20260118');
    expect(
      await count(`SELECT count(*) AS n FROM captured_call_ids WHERE request_id IN ('r-1', 'r-3')`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM usage_records`)).toBe(1);
    // A capture for a dropped day, arriving late but not yet expired, recreates its partition.
    expect(
      await insertCapturedCalls(ledger.db, {
        calls: [makeCapturedCall({ requestId: 'r-late', expiresAt: Date.UTC(2026, 0, 19, 12) })],
        now: Date.UTC(2026, 0, 19, 1),
      }),
    ).toEqual({ inserted: 1, expired: 0 });
    // 26 January: the 10-day capture is gone too.
    await applyRetention(ledger.db, { now: Date.UTC(2026, 0, 26, 0, 30), retentionDays: 90 });
    expect(await kept()).toEqual([]);
  });
});
