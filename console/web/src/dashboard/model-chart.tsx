/** The models' shares of the cost as a ring (Recharts; loaded only by the dashboard). */
import { Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import type { ModelShare } from '../api/usage-api.js';
import { formatShare } from '../format/format-usage.js';
import { modelColor } from './model-colors.js';

export default function ModelChart(props: { models: ModelShare[]; label: string }) {
  const data = props.models.map((model, index) => ({
    name: model.model,
    fill: modelColor(index),
    // Free requests still show: a ring needs a positive value.
    value: model.costNano > 0 ? model.costNano : model.requests,
    share: model.costShare,
  }));
  return (
    <figure className="chart model-chart" aria-label={props.label}>
      <ResponsiveContainer width="100%" height={200}>
        <PieChart>
          <Pie
            data={data}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="85%"
            stroke={data.length > 1 ? 'var(--surface)' : 'none'}
            isAnimationActive={false}
          />
          <Tooltip
            formatter={(_value, name, item) => {
              const share = (item.payload as { share: number } | undefined)?.share ?? 0;
              return [formatShare(share), String(name)];
            }}
            contentStyle={{
              background: 'var(--surface)',
              border: '1px solid var(--border)',
              color: 'var(--text)',
            }}
          />
        </PieChart>
      </ResponsiveContainer>
    </figure>
  );
}
