import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from '../insert-usage-records.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { buildTopKeysSql, queryTopKeys } from './top-keys.js';

const H = 3_600_000;
const NOW = Date.UTC(2026, 2, 20, 15);
const M = 1_000_000;

describe.each(LEDGER_KINDS)('top keys on %s', (kind) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    await insertUsageRecords(ledger.db, [
      // key-a: 30 M over two records, the latest under its new name.
      makeRecord({
        requestId: 'a-1',
        time: NOW - 5 * H,
        keyUid: 'a',
        keyName: 'old-a',
        costNano: 10 * M,
      }),
      makeRecord({
        requestId: 'a-2',
        time: NOW - 1 * H,
        keyUid: 'a',
        keyName: 'key-a',
        costNano: 20 * M,
      }),
      // key-b: 50 M, the most expensive.
      makeRecord({
        requestId: 'b-1',
        time: NOW - 2 * H,
        keyUid: 'b',
        keyName: 'key-b',
        costNano: 50 * M,
      }),
      // key-c and key-d: same cost, key-d has more requests.
      makeRecord({
        requestId: 'c-1',
        time: NOW - 3 * H,
        keyUid: 'c',
        keyName: 'key-c',
        costNano: 5 * M,
      }),
      makeRecord({
        requestId: 'd-1',
        time: NOW - 3 * H,
        keyUid: 'd',
        keyName: 'key-d',
        costNano: 2 * M,
      }),
      makeRecord({
        requestId: 'd-2',
        time: NOW - 4 * H,
        keyUid: 'd',
        keyName: 'key-d',
        costNano: 3 * M,
      }),
      // Outside the range, and another namespace.
      makeRecord({ requestId: 'c-old', time: NOW - 40 * 24 * H, keyUid: 'c', costNano: 900 * M }),
      makeRecord({
        requestId: 'x-1',
        time: NOW - H,
        namespace: 'team-x',
        keyUid: 'x',
        costNano: 999 * M,
      }),
    ]);
  });
  afterAll(async () => {
    await ledger.drop();
  });

  it('ranks the keys of the range by cost, with their latest name and cost share', async () => {
    const top = await queryTopKeys(ledger.db, {
      namespace: 'team-a',
      from: NOW - 30 * 24 * H,
      to: NOW,
      limit: 10,
    });
    expect(top.map((key) => [key.keyName, key.costNano, key.requests])).toEqual([
      ['key-b', 50 * M, 1],
      ['key-a', 30 * M, 2],
      ['key-d', 5 * M, 2],
      ['key-c', 5 * M, 1],
    ]);
    expect(top[0]!.costShare).toBeCloseTo(50 / 90, 10);
    expect(top[1]!.tokens.output).toBe(100);
  });

  it('keeps the shares of the whole account when the list is cut', async () => {
    const top = await queryTopKeys(ledger.db, {
      namespace: 'team-a',
      from: NOW - 30 * 24 * H,
      to: NOW,
      limit: 2,
    });
    expect(top.map((key) => key.keyUid)).toEqual(['b', 'a']);
    expect(top[1]!.costShare).toBeCloseTo(30 / 90, 10);
  });

  it('answers nothing for a range without usage, and refuses a limit out of bounds', async () => {
    expect(
      await queryTopKeys(ledger.db, { namespace: 'team-a', from: NOW, to: NOW + H, limit: 5 }),
    ).toEqual([]);
    expect(() => buildTopKeysSql({ namespace: 'n', from: 0, to: 1, limit: 0 })).toThrow(RangeError);
  });
});
