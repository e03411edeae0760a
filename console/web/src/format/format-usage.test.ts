import { describe, expect, it } from 'vitest';
import { timeZoneCaption } from './format-usage.js';

describe('time zone caption', () => {
  it('names the zone and its offset at the time shown, summer time included', () => {
    expect(timeZoneCaption(Date.UTC(2026, 0, 15), 'Europe/Berlin')).toBe(
      'Times in Europe/Berlin (UTC+01:00)',
    );
    expect(timeZoneCaption(Date.UTC(2026, 6, 15), 'Europe/Berlin')).toBe(
      'Times in Europe/Berlin (UTC+02:00)',
    );
    expect(timeZoneCaption(Date.UTC(2026, 0, 15), 'Australia/Adelaide')).toBe(
      'Times in Australia/Adelaide (UTC+10:30)',
    );
    expect(timeZoneCaption(Date.UTC(2026, 0, 15), 'America/New_York')).toBe(
      'Times in America/New_York (UTC-05:00)',
    );
  });

  it('says UTC once for UTC', () => {
    expect(timeZoneCaption(Date.UTC(2026, 0, 15), 'UTC')).toBe('Times in UTC');
  });

  it("defaults to the browser's zone", () => {
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(timeZoneCaption(Date.UTC(2026, 0, 15))).toContain(zone === 'UTC' ? 'UTC' : zone);
  });
});
