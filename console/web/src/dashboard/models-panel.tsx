/** The dashboard's "Models": each model's share of the period's cost, as a ring and a table. */
import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { ModelShare } from '../api/usage-api.js';
import { formatShare } from '../format/format-usage.js';
import { usdTextOfNano } from '../format/format-usd.js';
import { UsdAmount } from '../format/usd-amount.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { modelColor } from './model-colors.js';

export const loadModelChart = () => import('./model-chart.js');
const ModelChart = lazy(loadModelChart);

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

export function ModelsPanel(props: {
  models: UseQueryResult<{ models: ModelShare[] }>;
  periodText: string;
}) {
  const { models, periodText } = props;
  return (
    <section className="card" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      <p className="hint">Share of the cost, {periodText}.</p>
      <UsageErrorNote error={models.error} />
      {models.data === undefined && models.error === null && <p role="status">Loading models…</p>}
      {models.data !== undefined && models.data.models.length === 0 && (
        <p className="hint">No usage in this period.</p>
      )}
      {models.data !== undefined && models.data.models.length > 0 && (
        <div className="model-mix">
          <Suspense fallback={<p role="status">Loading the chart…</p>}>
            <ModelChart models={models.data.models} label={`Model distribution, ${periodText}`} />
          </Suspense>
          <ModelTable models={models.data.models} />
        </div>
      )}
    </section>
  );
}
