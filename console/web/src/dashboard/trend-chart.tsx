/** The account's usage per hour or day as bars (Recharts; loaded only by the dashboard). */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatUsdWithExact, usdTextOfNano } from '../format/format-usd.js';
import { valueAxis } from '../format/nice-ticks.js';
import { formatCount } from '../format/format-usage.js';
import type { TrendSlot } from './trend-slots.js';
import { METRIC_LABELS, type TrendMetric } from './trend-metric.js';

/** A bar's figure in the tooltip: money rounded as everywhere, with its exact amount. */
function formatMetric(metric: TrendMetric, value: number): string {
  if (metric !== 'cost') return formatCount(value);
  return formatUsdWithExact(usdTextOfNano(value * 1e9));
}

export default function TrendChart(props: {
  slots: TrendSlot[];
  metric: TrendMetric;
  label: string;
}) {
  const { metric } = props;
  const axis = valueAxis(
    props.slots.map((slot) => slot[metric]),
    metric === 'cost' ? 'usd' : 'count',
  );
  return (
    <figure className="chart" aria-label={props.label}>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={props.slots} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="short" stroke="var(--muted)" fontSize={12} minTickGap={12} />
          <YAxis
            stroke="var(--muted)"
            fontSize={12}
            width={72}
            ticks={axis.ticks}
            domain={axis.domain}
            interval={0}
            tickFormatter={axis.label}
          />
          <Tooltip
            formatter={(value) => [formatMetric(metric, Number(value)), METRIC_LABELS[metric]]}
            labelFormatter={(_label, payload) => {
              const slot = payload[0]?.payload as TrendSlot | undefined;
              return slot?.label.replace('T', ' ') ?? '';
            }}
            contentStyle={{
              background: 'var(--surface)',
              border: '1px solid var(--border)',
              color: 'var(--text)',
            }}
            cursor={{ fill: 'var(--border)', opacity: 0.4 }}
          />
          <Bar dataKey={metric} fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="hint">{props.label}</figcaption>
    </figure>
  );
}
