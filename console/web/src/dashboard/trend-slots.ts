/**
 * Pure: the dashboard's trend ranges and slots. The server answers only the buckets that have
 * usage, in its own time zone; the chart shows every hour of the last 24 or every day of the last
 * `days` (30 unless told), with zeros where nothing was used.
 */
import { totalTokens, type TrendPoint } from '../api/usage-api.js';

export type TrendBucket = 'hour' | 'day';

export interface TrendSlot {
  /** The server's label (`YYYY-MM-DD` or `YYYY-MM-DDTHH:00`). */
  label: string;
  /** The axis label (`14:00`, `03-20`). */
  short: string;
  requests: number;
  tokens: number;
  cost: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface LocalClock {
  date: string;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock at `time` in `timeZone` (a bad zone falls back to UTC). */
export function localClock(time: number, timeZone: string): LocalClock {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    return localClock(time, 'UTC');
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(time))) parts[part.type] = part.value;
  return {
    date: `${parts.year ?? '0000'}-${parts.month ?? '01'}-${parts.day ?? '01'}`,
    hour: Number(parts.hour ?? 0),
    minute: Number(parts.minute ?? 0),
    second: Number(parts.second ?? 0),
  };
}

/** `YYYY-MM-DD` `days` calendar days before `date`. */
export function daysBefore(date: string, days: number): string {
  const at = Date.parse(`${date}T12:00:00Z`) - days * DAY;
  return new Date(at).toISOString().slice(0, 10);
}

/** The query range: the last 24 local hours (whole hours) or the last `days` (30) local days. */
export function trendRange(
  bucket: TrendBucket,
  options: { now: number; timeZone: string; days?: number },
): { from: number; to: number } {
  const days = options.days ?? 30;
  const clock = localClock(options.now, options.timeZone);
  const intoHour = (clock.minute * 60 + clock.second) * 1000 + (options.now % 1000);
  const hourStart = options.now - intoHour;
  if (bucket === 'hour') return { from: hourStart - 23 * HOUR, to: options.now };
  // Local midnight (within an hour across a daylight saving change), `days - 1` days back.
  return { from: hourStart - clock.hour * HOUR - (days - 1) * DAY, to: options.now };
}

function slotOf(label: string, short: string, point: TrendPoint | undefined): TrendSlot {
  return {
    label,
    short,
    requests: point?.requests ?? 0,
    tokens: point === undefined ? 0 : totalTokens(point.tokens),
    cost: (point?.costNano ?? 0) / 1e9,
  };
}

/** Every slot of the range, oldest first, filled from the server's points. */
export function trendSlots(
  bucket: TrendBucket,
  options: { points: readonly TrendPoint[]; now: number; timeZone: string; days?: number },
): TrendSlot[] {
  const byLabel = new Map(options.points.map((point) => [point.label, point]));
  const slots: TrendSlot[] = [];
  if (bucket === 'hour') {
    const { from } = trendRange('hour', options);
    for (let index = 0; index < 24; index++) {
      const clock = localClock(from + index * HOUR, options.timeZone);
      const hour = `${String(clock.hour).padStart(2, '0')}:00`;
      const label = `${clock.date}T${hour}`;
      slots.push(slotOf(label, hour, byLabel.get(label)));
    }
    return slots;
  }
  const today = localClock(options.now, options.timeZone).date;
  for (let back = (options.days ?? 30) - 1; back >= 0; back--) {
    const label = daysBefore(today, back);
    slots.push(slotOf(label, label.slice(5), byLabel.get(label)));
  }
  return slots;
}
