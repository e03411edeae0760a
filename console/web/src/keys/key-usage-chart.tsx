/** The key's daily cost over the last 30 days (Recharts; loaded only on the key page). */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { KeyUsage } from '../api/console-api.js';

export default function KeyUsageChart(props: { usage: KeyUsage }) {
  const data = props.usage.daily.map((day) => ({
    day: day.day.slice(5),
    cost: day.costNano / 1e9,
    requests: day.requests,
  }));
  return (
    <figure className="chart" aria-label="Daily cost, last 30 days">
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="day" stroke="var(--muted)" fontSize={12} minTickGap={16} />
          <YAxis
            stroke="var(--muted)"
            fontSize={12}
            width={64}
            tickFormatter={(value: number) =>
              value >= 1 ? `$${value.toFixed(2)}` : `$${Number(value.toPrecision(2))}`
            }
          />
          <Tooltip
            formatter={(value) => [`$${Number(value).toFixed(6)}`, 'Cost']}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
          />
          <Bar dataKey="cost" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="hint">Daily cost (USD), {props.usage.timeZone}</figcaption>
    </figure>
  );
}
