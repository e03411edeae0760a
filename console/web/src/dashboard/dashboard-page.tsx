/**
 * The account's dashboard: one period (the last 24 hours, 7 or 30 days; kept in the address as
 * `?period=`) for its usage trend (per hour or day, as cost, requests or tokens), the model
 * distribution and the top keys by cost; the balance and the concurrency.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type ModelShare } from '../api/usage-api.js';
import { usdTextOfNano } from '../format/format-usd.js';
import { UsdAmount } from '../format/usd-amount.js';
import { AccountPicker } from '../ui/account-picker.js';
import { formatCount, formatRequests, formatShare } from '../format/format-usage.js';
import { trendRange, trendSlots } from './trend-slots.js';
import { isUsageUnavailable, UnavailableFigure, UsageErrorNote } from '../ui/usage-unavailable.js';
import { useNow } from '../ui/use-now.js';
import { AccountStandingPanel } from './account-standing-panel.js';
import { PERIOD_ORDER, PERIODS, periodOf } from './dashboard-period.js';
import { modelColor } from './model-colors.js';
import { TopKeysPanel } from './top-keys-panel.js';
import { METRIC_LABELS, type TrendMetric } from './trend-metric.js';
import './dashboard.css';
import { usageQueries } from '../usage/usage-queries.js';

const loadTrendChart = () => import('./trend-chart.js');
const loadModelChart = () => import('./model-chart.js');
const TrendChart = lazy(loadTrendChart);
const ModelChart = lazy(loadModelChart);

function Toggle<T extends string>(props: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="tabs" role="group" aria-label={props.label}>
      {props.options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="quiet"
          aria-pressed={option.value === props.value}
          onClick={() => {
            props.onChange(option.value);
          }}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

function ModelTable(props: { models: ModelShare[] }) {
  return (
    <div className="table-scroll">
      <table className="usage-table">
        <caption className="visually-hidden">Usage per model</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {props.models.map((model, index) => (
            <tr key={model.model}>
              <th scope="row">
                <span className="swatch" style={{ background: modelColor(index) }} aria-hidden />
                {model.model}
              </th>
              <td className="num">
                <UsdAmount value={usdTextOfNano(model.costNano)} />
              </td>
              <td className="num">{formatShare(model.costShare)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DashboardPage(props: { namespace: string }) {
  const [, navigate] = useLocation();
  // The charts' code (Recharts) loads while the usage is read, not after.
  useEffect(() => {
    void loadTrendChart();
    void loadModelChart();
  }, []);
  const now = useNow();
  const period = periodOf(useSearch());
  const { bucket, days, label: periodLabel } = PERIODS[period];
  const [metric, setMetric] = useState<TrendMetric>('cost');
  // The server's time zone comes with its answer; until then the range is drawn in UTC.
  const [timeZone, setTimeZone] = useState('UTC');
  const range = trendRange(bucket, { now, timeZone, days });
  const from = new Date(range.from).toISOString();
  // A minute ahead: `now` is rounded down to the minute, and the last minute's usage counts.
  const to = new Date(range.to + 60_000).toISOString();
  const trend = useQuery({
    ...usageQueries.trend(props.namespace, { bucket, from, to }),
    placeholderData: (previous) => previous,
    refetchInterval: 60_000,
  });
  const answeredZone = trend.data?.timeZone;
  useEffect(() => {
    if (answeredZone !== undefined) setTimeZone(answeredZone);
  }, [answeredZone]);
  const models = useQuery({
    ...usageQueries.models(props.namespace, { from, to }),
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
  // Without the trend because the ledger cannot be read: "unavailable", not a false zero.
  const total = (figure: ReactNode) =>
    trend.data === undefined && isUsageUnavailable(trend.error) ? <UnavailableFigure /> : figure;
  const periodText = periodLabel.toLowerCase();
  const chartLabel = `${METRIC_LABELS[metric]} per ${bucket}, ${periodText}`;
  return (
    <section aria-labelledby="dashboard-title" className="dashboard">
      <div className="page-head">
        <h1 id="dashboard-title">Dashboard</h1>
        <div className="dashboard-controls">
          <AccountPicker
            value={props.namespace}
            onChange={(namespace) => {
              navigate(`/accounts/${namespace}/dashboard?period=${period}`);
            }}
          />
          <Toggle
            label="Period"
            value={period}
            onChange={(chosen) => {
              navigate(`/accounts/${props.namespace}/dashboard?period=${chosen}`, {
                replace: true,
              });
            }}
            options={PERIOD_ORDER.map((value) => ({ value, label: PERIODS[value].label }))}
          />
        </div>
      </div>
      <div className="dashboard-grid">
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
          <Toggle
            label="Show"
            value={metric}
            onChange={setMetric}
            options={(['cost', 'requests', 'tokens'] as const).map((value) => ({
              value,
              label: METRIC_LABELS[value],
            }))}
          />
          <UsageErrorNote error={trend.error} />
          {trend.data === undefined && trend.error === null && (
            <p role="status">Loading the trend…</p>
          )}
          {trend.data !== undefined && (
            <Suspense fallback={<p role="status">Loading the chart…</p>}>
              <TrendChart slots={slots} metric={metric} label={chartLabel} />
            </Suspense>
          )}
        </section>
        <AccountStandingPanel namespace={props.namespace} />
        <TopKeysPanel namespace={props.namespace} range={{ from, to }} period={periodLabel} />
        <section className="card" aria-labelledby="models-title">
          <h2 id="models-title">Models</h2>
          <p className="hint">Share of the cost, {periodText}.</p>
          <UsageErrorNote error={models.error} />
          {models.data === undefined && models.error === null && (
            <p role="status">Loading models…</p>
          )}
          {models.data !== undefined && models.data.models.length === 0 && (
            <p className="hint">No usage in this period.</p>
          )}
          {models.data !== undefined && models.data.models.length > 0 && (
            <div className="model-mix">
              <Suspense fallback={<p role="status">Loading the chart…</p>}>
                <ModelChart
                  models={models.data.models}
                  label={`Model distribution, ${periodText}`}
                />
              </Suspense>
              <ModelTable models={models.data.models} />
            </div>
          )}
        </section>
      </div>
    </section>
  );
}
