/**
 * Where the current calendar day, week (Monday to Sunday) and month of a time zone end, as epoch
 * ms: the plan's and member budgets' calendar windows (store/budget-windows.ts). The store never
 * needs time zone data: the gateway passes these ends with the admission and the settlement.
 * The answer is kept per time zone until the day ends, so a call pays one comparison.
 */
import type { CalendarEnds } from './budget-windows.js';

interface LocalDate {
  year: number;
  /** 0-11. */
  month: number;
  day: number;
  /** 0 = Monday ... 6 = Sunday. */
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, found);
  }
  return found;
}

/** The wall clock of `time` in the time zone, read as if it were UTC (epoch ms), and its date. */
function wallClock(time: number, timeZone: string): { wall: number; date: LocalDate } {
  const parts: Record<string, string> = {};
  for (const part of formatOf(timeZone).formatToParts(time)) parts[part.type] = part.value;
  const date = {
    year: Number(parts.year),
    month: Number(parts.month) - 1,
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Mon'),
  };
  const wall = Date.UTC(
    date.year,
    date.month,
    date.day,
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return { wall, date };
}

/** The epoch ms of a local midnight (Date.UTC arguments), across offset changes. */
function localMidnight(timeZone: string, date: { year: number; month: number; day: number }) {
  const wall = Date.UTC(date.year, date.month, date.day);
  let time = wall;
  // Two rounds settle the offset even when the midnight lies next to a change of it.
  for (let round = 0; round < 2; round += 1) {
    time = wall - (wallClock(time, timeZone).wall - Math.floor(time / 1000) * 1000);
  }
  return time;
}

export function computeCalendarEnds(now: number, timeZone: string): CalendarEnds {
  const { date } = wallClock(now, timeZone);
  const { year, month, day, weekday } = date;
  return {
    dayEnd: localMidnight(timeZone, { year, month, day: day + 1 }),
    weekEnd: localMidnight(timeZone, { year, month, day: day + 7 - weekday }),
    monthEnd: localMidnight(timeZone, { year, month: month + 1, day: 1 }),
  };
}

/** Where the current day, week and month began (the ledger's restore sums the spend since). */
export function computeCalendarStarts(
  now: number,
  timeZone: string,
): { dayStart: number; weekStart: number; monthStart: number } {
  const { date } = wallClock(now, timeZone);
  const { year, month, day, weekday } = date;
  return {
    dayStart: localMidnight(timeZone, { year, month, day }),
    weekStart: localMidnight(timeZone, { year, month, day: day - weekday }),
    monthStart: localMidnight(timeZone, { year, month, day: 1 }),
  };
}

/**
 * computeCalendarEnds with the answer kept per time zone while the day lasts (the gateway's
 * per-call entry point).
 */
export function createCalendarEnds(defaultTimeZone: string) {
  const kept = new Map<string, CalendarEnds & { dayStart: number }>();
  return (now: number, timeZone: string | null): CalendarEnds => {
    const zone = timeZone ?? defaultTimeZone;
    const found = kept.get(zone);
    if (found !== undefined && now >= found.dayStart && now < found.dayEnd) return found;
    const ends = computeCalendarEnds(now, zone);
    const { date } = wallClock(now, zone);
    const dayStart = localMidnight(zone, date);
    if (kept.size > 1024) kept.clear();
    kept.set(zone, { ...ends, dayStart });
    return ends;
  };
}
