/**
 * The dashboard's "Usage trend": the period's totals of requests, tokens and cost, and a chart of
 * one of them per hour or day ("unavailable" totals when the ledger cannot be read).
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { formatCount, formatRequests } from '../format/format-usage.js';
import { usdTextOfNano } from '../format/format-usd.js';
import { UsdAmount } from '../format/usd-amount.js';
import { isUsageUnavailable, UnavailableFigure, UsageErrorNote } from '../ui/usage-unavailable.js';
import { ToggleGroup } from './toggle-group.js';
import { METRIC_LABELS, type TrendMetric } from './trend-metric.js';
import type { DashboardTrend } from './use-dashboard-usage.js';

export const loadTrendChart = () => import('./trend-chart.js');
const TrendChart = lazy(loadTrendChart);

export function TrendPanel(props: { trend: DashboardTrend; periodLabel: string }) {
  const { trend, slots, totals, bucket } = props.trend;
  const { periodLabel } = props;
  const [metric, setMetric] = useState<TrendMetric>('cost');
  // Without the trend because the ledger cannot be read: "unavailable", not a false zero.
  const total = (figure: ReactNode) =>
    trend.data === undefined && isUsageUnavailable(trend.error) ? <UnavailableFigure /> : figure;
  const periodText = periodLabel.toLowerCase();
  const chartLabel = `${METRIC_LABELS[metric]} per ${bucket}, ${periodText}`;
  return (
    <section className="card span-2" aria-labelledby="trend-title">
      <div className="card-head">
        <h2 id="trend-title">Usage trend</h2>
        <p className="hint">{periodLabel}</p>
      </div>
      <dl className="figures totals three" aria-label={`Totals, ${periodText}`}>
        <div>
          <dt>Requests</dt>
          <dd className="big">{total(formatRequests(totals.requests))}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd className="big">{total(formatCount(totals.tokens))}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd className="big">{total(<UsdAmount value={usdTextOfNano(totals.costNano)} />)}</dd>
        </div>
      </dl>
      <ToggleGroup
        label="Show"
        value={metric}
        onChange={setMetric}
        options={(['cost', 'requests', 'tokens'] as const).map((value) => ({
          value,
          label: METRIC_LABELS[value],
        }))}
      />
      <UsageErrorNote error={trend.error} />
      {trend.data === undefined && trend.error === null && <p role="status">Loading the trend…</p>}
      {trend.data !== undefined && (
        <Suspense fallback={<p role="status">Loading the chart…</p>}>
          <TrendChart slots={slots} metric={metric} label={chartLabel} />
        </Suspense>
      )}
    </section>
  );
}
