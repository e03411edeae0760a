import { describe, expect, it } from 'vitest';
import { dayOf } from './day-of.js';

const intlDay = (time: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(time));

describe('dayOf', () => {
  it.each([
    Date.parse('2026-11-22T00:00:00.000Z'),
    Date.parse('2026-11-22T23:59:59.999Z'),
    Date.parse('2024-02-29T12:00:00Z'),
    Date.parse('1999-12-31T23:59:59Z'),
  ])('gives the UTC day of %i as the Intl formatting does', (time) => {
    expect(dayOf(time, 'UTC')).toBe(intlDay(time, 'UTC'));
    expect(dayOf(time, 'UTC')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('counts days in the deployment time zone', () => {
    const time = Date.parse('2026-11-22T11:00:00Z');
    expect(dayOf(time, 'UTC')).toBe('2026-11-22');
    expect(dayOf(time, 'Pacific/Kiritimati')).toBe('2026-11-23');
    expect(dayOf(time, 'Pacific/Pago_Pago')).toBe('2026-11-22');
    expect(dayOf(Date.parse('2026-11-22T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-11-23');
    expect(dayOf(Date.parse('2026-11-22T09:59:00Z'), 'Pacific/Kiritimati')).toBe('2026-11-22');
  });
});
