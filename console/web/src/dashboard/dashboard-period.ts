/**
 * Pure: the dashboard's one period, shared by the trend, the models and the top keys: the last 24
 * hours (per hour), or the last 7 or 30 local days (per day).
 */
import type { TrendBucket } from './trend-slots.js';

export type DashboardPeriod = '24h' | '7d' | '30d';

export interface PeriodShape {
  label: string;
  bucket: TrendBucket;
  /** Local days in a per-day period. */
  days: number;
}

export const PERIODS: Record<DashboardPeriod, PeriodShape> = {
  '24h': { label: 'Last 24 hours', bucket: 'hour', days: 1 },
  '7d': { label: 'Last 7 days', bucket: 'day', days: 7 },
  '30d': { label: 'Last 30 days', bucket: 'day', days: 30 },
};

export const PERIOD_ORDER: readonly DashboardPeriod[] = ['24h', '7d', '30d'];

/** The period named in the page's address (`?period=7d`); the last 24 hours otherwise. */
export function periodOf(search: string): DashboardPeriod {
  const named = new URLSearchParams(search).get('period');
  return PERIOD_ORDER.find((period) => period === named) ?? '24h';
}
