/** The key's daily cost over the last 30 days (Recharts; loaded only on the key page). */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { KeyUsage } from '../api/console-api.js';
import { formatUsdWithExact, usdTextOfNano } from '../format/format-usd.js';
import { valueAxis } from '../format/nice-ticks.js';

export default function KeyUsageChart(props: { usage: KeyUsage }) {
  const data = props.usage.daily.map((day) => ({
    day: day.day.slice(5),
    cost: day.costNano / 1e9,
    requests: day.requests,
  }));
  const axis = valueAxis(
    data.map((day) => day.cost),
    'usd',
  );
  return (
    <figure className="chart" aria-label="Daily cost, last 30 days">
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="day" stroke="var(--muted)" fontSize={12} minTickGap={16} />
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
            formatter={(value) => [formatUsdWithExact(usdTextOfNano(Number(value) * 1e9)), 'Cost']}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
          />
          <Bar dataKey="cost" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="hint">Daily cost (USD), {props.usage.timeZone}</figcaption>
    </figure>
  );
}
