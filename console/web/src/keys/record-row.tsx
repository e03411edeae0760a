/**
 * One usage record as a table row (a card below 720 px): time, model, tokens, cost, outcome; its
 * request id links to the record's page.
 */
import { Link } from 'wouter';
import type { UsageRecordRow } from '../api/usage-api.js';
import { formatCount, formatDuration } from '../format/format-usage.js';
import { usdTextOfNano } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { OUTCOME_LABELS, TOKEN_COUNT_LABEL } from './record-filters.js';

export const recordTimeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "Success · 200", or for a token count "Token count · 200" (its outcome added when it failed). */
export function outcomeText(record: UsageRecordRow): string {
  const outcome = OUTCOME_LABELS[record.outcome];
  if (record.kind !== 'token_count') return `${outcome} · ${record.status}`;
  const failed = record.outcome === 'success' ? '' : ` (${outcome.toLowerCase()})`;
  return `${TOKEN_COUNT_LABEL}${failed} · ${record.status}`;
}

/** The address of a record's page. */
export function recordHref(ref: { namespace: string; name: string; requestId: string }): string {
  return `/accounts/${ref.namespace}/keys/${encodeURIComponent(ref.name)}/records/${encodeURIComponent(ref.requestId)}`;
}

export function RecordRow(props: { record: UsageRecordRow; namespace: string; name: string }) {
  const { record } = props;
  const { usage } = record;
  const kindClass = record.kind === 'token_count' ? 'token_count' : record.outcome;
  return (
    <tr>
      <th scope="row" data-label="Time">
        <time dateTime={new Date(record.time).toISOString()}>
          {recordTimeFormat.format(record.time)}
        </time>
      </th>
      <td data-label="Model">
        {record.model}
        {record.upstreamModel !== record.model && record.upstreamModel !== '' && (
          <span className="sub">{record.upstreamModel}</span>
        )}
      </td>
      <td data-label="Input" className="num">
        {formatCount(usage.inputUncached)}
      </td>
      <td data-label="Output" className="num">
        {formatCount(usage.output)}
      </td>
      <td data-label="Cache read" className="num">
        {formatCount(usage.cacheRead)}
      </td>
      <td data-label="Cache write" className="num">
        {formatCount(usage.cacheWrite5m + usage.cacheWrite1h)}
      </td>
      <td data-label="Cost" className="num">
        <UsdAmount value={usdTextOfNano(record.costNano)} />
        {record.estimated && <span className="sub">estimated</span>}
      </td>
      <td data-label="Duration" className="num">
        {formatDuration(record.durationMs)}
      </td>
      <td data-label="First byte" className="num">
        {record.timeToFirstByteMs === null ? '—' : formatDuration(record.timeToFirstByteMs)}
      </td>
      <td data-label="Stream">{record.stream ? 'yes' : 'no'}</td>
      <td data-label="Outcome">
        <span className={`outcome outcome-${kindClass}`}>{outcomeText(record)}</span>
      </td>
      <td data-label="Request id">
        <Link
          href={recordHref({ ...props, requestId: record.requestId })}
          aria-label={`Record ${record.requestId}`}
        >
          <code className="request-id">{record.requestId}</code>
        </Link>
      </td>
    </tr>
  );
}
