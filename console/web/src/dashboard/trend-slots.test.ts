import { describe, expect, it } from 'vitest';
import type { TrendPoint } from '../api/usage-api.js';
import { daysBefore, trendRange, trendSlots } from './trend-slots.js';

// 2026-03-20 15:42:10 UTC = 11:42 in New York (UTC-4), 21:12 in Kolkata (UTC+5:30).
const NOW = Date.UTC(2026, 2, 20, 15, 42, 10);

function point(label: string, costNano: number): TrendPoint {
  return {
    label,
    start: 0,
    requests: 2,
    estimatedRequests: 0,
    errorRequests: 0,
    tokens: {
      inputUncached: 10,
      cacheRead: 5,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 7,
      reasoning: 3,
    },
    costNano,
  };
}

describe('trend slots', () => {
  it('spans the last 24 whole local hours, also in a zone with a half-hour offset', () => {
    expect(trendRange('hour', { now: NOW, timeZone: 'UTC' })).toEqual({
      from: Date.UTC(2026, 2, 19, 16),
      to: NOW,
    });
    const kolkata = trendRange('hour', { now: NOW, timeZone: 'Asia/Kolkata' });
    expect(kolkata.from).toBe(Date.UTC(2026, 2, 19, 16, 30));
  });

  it('spans 30 local days from local midnight', () => {
    const range = trendRange('day', { now: NOW, timeZone: 'America/New_York' });
    // New York's 19 February began at 05:00 UTC (winter time); 20 March at 04:00 UTC.
    expect(range.from).toBe(Date.UTC(2026, 1, 19, 4));
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });

  it('spans a shorter count of days when asked, with one slot per day', () => {
    const range = trendRange('day', { now: NOW, timeZone: 'UTC', days: 7 });
    expect(range.from).toBe(Date.UTC(2026, 2, 14));
    const days = trendSlots('day', { points: [], now: NOW, timeZone: 'UTC', days: 7 });
    expect(days.map((slot) => slot.label)).toEqual(
      Array.from({ length: 7 }, (_, index) => `2026-03-${14 + index}`),
    );
  });

  it('fills every hour and day, with the points where the server has them', () => {
    const hours = trendSlots('hour', {
      points: [point('2026-03-20T11:00', 2e9)],
      now: NOW,
      timeZone: 'America/New_York',
    });
    expect(hours).toHaveLength(24);
    expect(hours.at(-1)).toEqual({
      label: '2026-03-20T11:00',
      short: '11:00',
      requests: 2,
      tokens: 22,
      cost: 2,
    });
    expect(hours[0]!.label).toBe('2026-03-19T12:00');
    expect(hours[0]!.cost).toBe(0);
    const days = trendSlots('day', {
      points: [point('2026-03-01', 5e8)],
      now: NOW,
      timeZone: 'America/New_York',
    });
    expect(days).toHaveLength(30);
    expect(days[0]!.label).toBe('2026-02-19');
    expect(days.at(-1)!.short).toBe('03-20');
    expect(days.find((slot) => slot.label === '2026-03-01')?.cost).toBe(0.5);
    expect(days.reduce((sum, slot) => sum + slot.requests, 0)).toBe(2);
  });
});
