import { describe, expect, it } from 'vitest';
import { daysBetween } from './aggregate-metrics.js';
import { cutPage, decodeCursor, encodeCursor, isAfterCursor } from './page-usage-records.js';
import type { UsageRecord } from './usage-records.js';

describe('record cursors', () => {
  it('round-trip time and request id, and refuse garbage', () => {
    const cursor = encodeCursor({ time: 1_763_000_000_123, requestId: 'req:with\tchars' });
    expect(decodeCursor(cursor)).toEqual({ time: 1_763_000_000_123, requestId: 'req:with\tchars' });
    expect(() => decodeCursor('bm90LWEtY3Vyc29y')).toThrow(/cursor/);
  });

  it('orders newest first, ties by request id descending', () => {
    const cursor = { time: 100, requestId: 'm' };
    expect(isAfterCursor({ time: 99, requestId: 'z' }, cursor)).toBe(true);
    expect(isAfterCursor({ time: 101, requestId: 'a' }, cursor)).toBe(false);
    expect(isAfterCursor({ time: 100, requestId: 'l' }, cursor)).toBe(true);
    expect(isAfterCursor({ time: 100, requestId: 'm' }, cursor)).toBe(false);
    expect(isAfterCursor({ time: 100, requestId: 'n' }, cursor)).toBe(false);
    expect(isAfterCursor({ time: 0, requestId: '' }, null)).toBe(true);
  });

  it('names a next cursor only when more records exist', () => {
    const records = [3, 2, 1].map((time) => ({ time, requestId: `r${time}` }) as UsageRecord);
    const full = cutPage(records, 2);
    expect(full.records.map((record) => record.time)).toEqual([3, 2]);
    expect(full.nextCursor === null ? null : decodeCursor(full.nextCursor)).toEqual({
      time: 2,
      requestId: 'r2',
    });
    expect(cutPage(records, 3).nextCursor).toBeNull();
  });
});

describe('daysBetween', () => {
  it('walks calendar days inclusively across month ends, capped', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(daysBetween('2026-03-02', '2026-03-01')).toEqual([]);
    expect(daysBetween('2026-01-01', '2027-12-31', 5)).toHaveLength(5);
    expect(() => daysBetween('yesterday', '2026-01-01')).toThrow(/YYYY-MM-DD/);
  });
});
