/** Pure: how usage figures read on the usage pages (token counts, shares, durations, the time zone). */

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en');

/** `12,345` below 100,000, then `123.4K`, `5.2M`. */
export function formatCount(count: number): string {
  return count < 100_000 ? whole.format(count) : compact.format(count);
}

export const formatRequests = (count: number): string =>
  count === 1 ? '1 request' : `${formatCount(count)} requests`;

export const formatShare = (fraction: number): string =>
  fraction > 0 && fraction < 0.001 ? '<0.1%' : `${(fraction * 100).toFixed(1)}%`;

/** Milliseconds as `850 ms` or `12.3 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * `Times in Europe/Berlin (UTC+01:00)`: the zone times are shown in (the browser's, unless
 * `timeZone` is given) and its offset at `at`; `Times in UTC` for UTC itself.
 */
export function timeZoneCaption(at: number, timeZone?: string): string {
  const format = new Intl.DateTimeFormat('en', {
    timeZoneName: 'longOffset',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  const zone = format.resolvedOptions().timeZone;
  if (zone === 'UTC' || zone === 'Etc/UTC') return 'Times in UTC';
  const offset = name === undefined || name === 'GMT' ? '+00:00' : name.replace(/^GMT/, '');
  return `Times in ${zone} (UTC${offset})`;
}
