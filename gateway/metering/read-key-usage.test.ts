import { describe, expect, it } from 'vitest';
import { calendarDays } from './read-key-usage.js';

describe('calendarDays', () => {
  it('ends on today in the time zone and crosses month and year ends', () => {
    const now = Date.UTC(2026, 0, 1, 2, 0);
    expect(calendarDays({ now, timeZone: 'UTC', days: 3 })).toEqual([
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
    ]);
    expect(calendarDays({ now, timeZone: 'America/New_York', days: 2 })).toEqual([
      '2025-12-30',
      '2025-12-31',
    ]);
  });

  it('counts calendar days across a daylight-saving change', () => {
    const now = Date.UTC(2026, 2, 9, 12, 0);
    expect(calendarDays({ now, timeZone: 'America/New_York', days: 3 })).toEqual([
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
    ]);
  });
});
