/**
 * What the dashboard reads for its period: the trend (per hour or day) and the models, over the
 * same range (a minute past `now`), refreshed every minute; the trend filled into slots in the
 * console's time zone (UTC until the server has named it), and their totals.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNow } from '../ui/use-now.js';
import { usageQueries } from '../usage/usage-queries.js';
import { PERIODS, type DashboardPeriod } from './dashboard-period.js';
import { trendRange, trendSlots } from './trend-slots.js';

export function useDashboardUsage(namespace: string, period: DashboardPeriod) {
  const now = useNow();
  const { bucket, days } = PERIODS[period];
  // The server's time zone comes with its answer; until then the range is drawn in UTC.
  const [timeZone, setTimeZone] = useState('UTC');
  const range = trendRange(bucket, { now, timeZone, days });
  const from = new Date(range.from).toISOString();
  // A minute ahead: `now` is rounded down to the minute, and the last minute's usage counts.
  const to = new Date(range.to + 60_000).toISOString();
  const trend = useQuery({
    ...usageQueries.trend(namespace, { bucket, from, to }),
    placeholderData: (previous) => previous,
    refetchInterval: 60_000,
  });
  const answeredZone = trend.data?.timeZone;
  useEffect(() => {
    if (answeredZone !== undefined) setTimeZone(answeredZone);
  }, [answeredZone]);
  const models = useQuery({
    ...usageQueries.models(namespace, { from, to }),
    placeholderData: (previous) => previous,
    refetchInterval: 60_000,
  });
  const slots =
    trend.data === undefined
      ? []
      : trendSlots(bucket, { points: trend.data.points, now, timeZone: trend.data.timeZone, days });
  const totals = slots.reduce(
    (sum, slot) => ({
      requests: sum.requests + slot.requests,
      tokens: sum.tokens + slot.tokens,
      costNano: sum.costNano + Math.round(slot.cost * 1e9),
    }),
    { requests: 0, tokens: 0, costNano: 0 },
  );
  return { range: { from, to }, trend: { trend, slots, totals, bucket }, models };
}

export type DashboardTrend = ReturnType<typeof useDashboardUsage>['trend'];
