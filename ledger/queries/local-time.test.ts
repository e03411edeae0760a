import { describe, expect, it } from 'vitest';
import { checkTimeZone, localDay, startOfLocalDay } from './local-time.js';

describe('local days', () => {
  it('finds local midnight in UTC and in zones ahead of and behind it', () => {
    const time = Date.UTC(2026, 2, 10, 3, 30);
    expect(startOfLocalDay(time, 'UTC')).toBe(Date.UTC(2026, 2, 10));
    expect(localDay(time, 'America/New_York')).toBe('2026-03-09');
    // 9 March is already summer time (UTC-4).
    expect(startOfLocalDay(time, 'America/New_York')).toBe(Date.UTC(2026, 2, 9, 4));
    expect(startOfLocalDay(time, 'Asia/Kolkata')).toBe(Date.UTC(2026, 2, 9, 18, 30));
    expect(startOfLocalDay(time, 'Europe/Berlin', 29)).toBe(Date.UTC(2026, 1, 8, 23));
  });

  it('counts days across a daylight saving change', () => {
    // New York moves to summer time on 2026-03-08: midnight before is UTC-5, after is UTC-4.
    const time = Date.UTC(2026, 2, 12, 12);
    expect(startOfLocalDay(time, 'America/New_York')).toBe(Date.UTC(2026, 2, 12, 4));
    expect(startOfLocalDay(time, 'America/New_York', 5)).toBe(Date.UTC(2026, 2, 7, 5));
  });

  it('refuses a name that is not a time zone', () => {
    expect(() => checkTimeZone('Mars/Olympus')).toThrow(RangeError);
  });
});
