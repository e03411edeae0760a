/** One usage record's figures: time, model, tokens, cost, duration, first byte, outcome. */
import type { UsageRecordRow } from '../api/usage-api.js';
import { formatCount, formatDuration } from '../format/format-usage.js';
import { usdTextOfNano } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { outcomeText, recordTimeFormat } from './record-row.js';

export function RecordFigures(props: { record: UsageRecordRow }) {
  const { record } = props;
  const { usage } = record;
  const figures: [string, React.ReactNode][] = [
    [
      'Time',
      <time dateTime={new Date(record.time).toISOString()}>
        {recordTimeFormat.format(record.time)}
      </time>,
    ],
    ['Model', record.model],
    ['Upstream model', record.upstreamModel === '' ? '—' : record.upstreamModel],
    ['Outcome', outcomeText(record)],
    ['Input', formatCount(usage.inputUncached)],
    ['Output', formatCount(usage.output)],
    ['Cache read', formatCount(usage.cacheRead)],
    ['Cache write', formatCount(usage.cacheWrite5m + usage.cacheWrite1h)],
    [
      'Cost',
      <>
        <UsdAmount value={usdTextOfNano(record.costNano)} />
        {record.estimated && ' (estimated)'}
      </>,
    ],
    ['Duration', formatDuration(record.durationMs)],
    [
      'First byte',
      record.timeToFirstByteMs === null ? '—' : formatDuration(record.timeToFirstByteMs),
    ],
    ['Stream', record.stream ? 'yes' : 'no'],
  ];
  return (
    <dl className="figures card">
      {figures.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
