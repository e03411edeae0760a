import { describe, expect, it } from 'vitest';
import {
  computeCalendarEnds,
  computeCalendarStarts,
  createCalendarEnds,
} from './compute-calendar-ends.js';

const at = (iso: string) => Date.parse(iso);

describe('computeCalendarEnds', () => {
  it('ends UTC days at midnight, weeks on Monday, months on the 1st', () => {
    // 2026-11-28 is a Saturday.
    expect(computeCalendarEnds(at('2026-11-28T10:00:00Z'), 'UTC')).toEqual({
      dayEnd: at('2026-11-29T00:00:00Z'),
      weekEnd: at('2026-11-30T00:00:00Z'),
      monthEnd: at('2026-12-01T00:00:00Z'),
    });
  });

  it('counts a Monday as the first day of its week and December into January', () => {
    expect(computeCalendarEnds(at('2026-12-28T00:00:00Z'), 'UTC')).toEqual({
      dayEnd: at('2026-12-29T00:00:00Z'),
      weekEnd: at('2027-01-04T00:00:00Z'),
      monthEnd: at('2027-01-01T00:00:00Z'),
    });
  });

  it('uses the local midnight of the time zone', () => {
    // 23:30 UTC on Jan 31 is already Feb 1 in Tokyo (UTC+9).
    const ends = computeCalendarEnds(at('2026-01-31T23:30:00Z'), 'Asia/Tokyo');
    expect(ends.dayEnd).toBe(at('2026-02-01T15:00:00Z'));
    expect(ends.monthEnd).toBe(at('2026-02-28T15:00:00Z'));
  });

  it('follows a change of offset (Berlin: summer time starts on 2026-03-29)', () => {
    const ends = computeCalendarEnds(at('2026-03-28T12:00:00Z'), 'Europe/Berlin');
    // Midnight of Mar 29 is still winter time (UTC+1); Apr 1 is summer time (UTC+2).
    expect(ends.dayEnd).toBe(at('2026-03-28T23:00:00Z'));
    expect(ends.weekEnd).toBe(at('2026-03-29T22:00:00Z'));
    expect(ends.monthEnd).toBe(at('2026-03-31T22:00:00Z'));
  });

  it('keeps the answer for the rest of the day only', () => {
    const ends = createCalendarEnds('UTC');
    expect(ends(at('2026-11-28T10:00:00Z'), null).dayEnd).toBe(at('2026-11-29T00:00:00Z'));
    expect(ends(at('2026-11-29T00:00:00Z'), null).dayEnd).toBe(at('2026-11-30T00:00:00Z'));
    // Midnight in New York (UTC-5) starts the next day there.
    expect(ends(at('2026-11-29T04:59:00Z'), 'America/New_York').dayEnd).toBe(
      at('2026-11-29T05:00:00Z'),
    );
    expect(ends(at('2026-11-29T05:00:00Z'), 'America/New_York').dayEnd).toBe(
      at('2026-11-30T05:00:00Z'),
    );
  });
});

describe('computeCalendarStarts', () => {
  it('starts the day at local midnight, the week on Monday, the month on the 1st', () => {
    expect(computeCalendarStarts(at('2026-11-28T10:00:00Z'), 'Asia/Tokyo')).toEqual({
      dayStart: at('2026-11-27T15:00:00Z'),
      weekStart: at('2026-11-22T15:00:00Z'),
      monthStart: at('2026-10-31T15:00:00Z'),
    });
  });
});
