/**
 * The account's dashboard: one period (the last 24 hours, 7 or 30 days; kept in the address as
 * `?period=`) for its usage trend (per hour or day, as cost, requests or tokens), the model
 * distribution and the top keys by cost; the balance and the concurrency.
 */
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { AccountPicker } from '../ui/account-picker.js';
import { AccountStandingPanel } from './account-standing-panel.js';
import { PERIOD_ORDER, PERIODS, periodOf } from './dashboard-period.js';
import { loadModelChart, ModelsPanel } from './models-panel.js';
import { ToggleGroup } from './toggle-group.js';
import { TopKeysPanel } from './top-keys-panel.js';
import { loadTrendChart, TrendPanel } from './trend-panel.js';
import { useDashboardUsage } from './use-dashboard-usage.js';
import './dashboard.css';

export function DashboardPage(props: { namespace: string }) {
  const [, navigate] = useLocation();
  // The charts' code (Recharts) loads while the usage is read, not after.
  useEffect(() => {
    void loadTrendChart();
    void loadModelChart();
  }, []);
  const period = periodOf(useSearch());
  const periodLabel = PERIODS[period].label;
  const { range, trend, models } = useDashboardUsage(props.namespace, period);
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
          <ToggleGroup
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
        <TrendPanel trend={trend} periodLabel={periodLabel} />
        <AccountStandingPanel namespace={props.namespace} />
        <TopKeysPanel namespace={props.namespace} range={range} period={periodLabel} />
        <ModelsPanel models={models} periodText={periodLabel.toLowerCase()} />
      </div>
    </section>
  );
}
