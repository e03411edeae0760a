/**
 * Days in an IANA time zone, computed without a date library: the zone's offset at an instant comes
 * from Intl, and local midnight is found by correcting a first guess with that offset.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** Throws a RangeError for a name that is not an IANA time zone. */
export function checkTimeZone(timeZone: string): string {
  formatter(timeZone);
  return timeZone;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(time: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(time))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Milliseconds the zone is ahead of UTC at `time`. */
function offsetAt(time: number, timeZone: string): number {
  const local = localParts(time, timeZone);
  const asUtc = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
  );
  return asUtc - (time - (((time % 1000) + 1000) % 1000));
}

/** `YYYY-MM-DD` of `time` in the zone. */
export function localDay(time: number, timeZone: string): string {
  const { year, month, day } = localParts(time, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The instant local midnight begins on the day `daysBack` days before the local day of `time`. */
export function startOfLocalDay(time: number, timeZone: string, daysBack = 0): number {
  const { year, month, day } = localParts(time, timeZone);
  const wallMidnight = Date.UTC(year, month - 1, day - daysBack);
  let guess = wallMidnight - offsetAt(wallMidnight, timeZone);
  guess = wallMidnight - offsetAt(guess, timeZone);
  return guess;
}
