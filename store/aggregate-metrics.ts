/**
 * The figures a daily aggregate sums per model, and their conversion to `DailyAggregate`. Shared by
 * both stores so the field set is defined once.
 */
import type { DailyAggregate, UsageBuckets, UsageRecord } from './usage-records.js';

export const BUCKET_NAMES = [
  'inputUncached',
  'cacheRead',
  'cacheWrite5m',
  'cacheWrite1h',
  'output',
  'reasoning',
] as const satisfies readonly (keyof UsageBuckets)[];

export const AGGREGATE_METRICS = ['requests', ...BUCKET_NAMES, 'costNano', 'durationMs'] as const;
export type AggregateMetric = (typeof AGGREGATE_METRICS)[number];

/** The increments one settled record adds, in AGGREGATE_METRICS order. */
export function aggregateIncrements(record: UsageRecord): number[] {
  return AGGREGATE_METRICS.map((metric) => {
    if (metric === 'requests') return 1;
    if (metric === 'costNano') return record.costNano;
    if (metric === 'durationMs') return record.durationMs;
    return record.usage[metric];
  });
}

export function emptyAggregate(day: string, model: string): DailyAggregate {
  return {
    day,
    model,
    requests: 0,
    usage: {
      inputUncached: 0,
      cacheRead: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 0,
      reasoning: 0,
    },
    costNano: 0,
    durationMs: 0,
  };
}

export function addToAggregate(
  aggregate: DailyAggregate,
  metric: AggregateMetric,
  value: number,
): void {
  if (metric === 'requests') aggregate.requests += value;
  else if (metric === 'costNano') aggregate.costNano += value;
  else if (metric === 'durationMs') aggregate.durationMs += value;
  else aggregate.usage[metric] += value;
}

export function isAggregateMetric(value: string): value is AggregateMetric {
  return (AGGREGATE_METRICS as readonly string[]).includes(value);
}

/** Days are `YYYY-MM-DD` labels; the range is walked on the calendar, whatever the time zone. */
export function daysBetween(fromDay: string, toDay: string, maxDays = 400): string[] {
  const days: string[] = [];
  const start = Date.parse(`${fromDay}T00:00:00Z`);
  const end = Date.parse(`${toDay}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new Error('days must be YYYY-MM-DD');
  for (let time = start; time <= end && days.length < maxDays; time += 86_400_000) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}

export function compareAggregates(left: DailyAggregate, right: DailyAggregate): number {
  if (left.day !== right.day) return left.day < right.day ? -1 : 1;
  if (left.model === right.model) return 0;
  return left.model < right.model ? -1 : 1;
}
