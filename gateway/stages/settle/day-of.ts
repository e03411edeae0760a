/** `dayOf`: the calendar day of a time in a time zone, as `YYYY-MM-DD`. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of `time` in `timeZone`. */
export function dayOf(time: number, timeZone: string): string {
  // The default zone needs no Intl formatting on every call.
  if (timeZone === 'UTC') return new Date(time).toISOString().slice(0, 10);
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(time));
}
