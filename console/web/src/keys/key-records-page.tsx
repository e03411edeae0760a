/**
 * The usage records of one key, newest first: filters (model, outcome, time range), pages of the
 * records API (its cursor; "Newer" goes back through the cursors seen), and the filtered records
 * as CSV, named after the filter. Token counts say so instead of "Success"; times are in the
 * browser's zone, named above the table.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { usageApi, type UsageRecordRow } from '../api/usage-api.js';
import { usdTextOfNano } from '../format/format-values.js';
import { UsdAmount } from '../format/usd-amount.js';
import { recordsCsvName } from '../../../server/usage/name-records-csv.js';
import { formatCount, formatDuration, timeZoneCaption } from '../format/format-usage.js';
import {
  EMPTY_FILTER,
  OUTCOME_LABELS,
  rangeProblem,
  recordFilterOf,
  TOKEN_COUNT_LABEL,
  type RecordFilterForm,
} from './record-filters.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import './records.css';
import { usageQueries } from '../usage/usage-queries.js';
import { keyQueries } from './key-queries.js';

const PAGE_SIZES = [25, 50, 100, 200] as const;
const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "Success · 200", or for a token count "Token count · 200" (its outcome added when it failed). */
function outcomeText(record: UsageRecordRow): string {
  const outcome = OUTCOME_LABELS[record.outcome];
  if (record.kind !== 'token_count') return `${outcome} · ${record.status}`;
  const failed = record.outcome === 'success' ? '' : ` (${outcome.toLowerCase()})`;
  return `${TOKEN_COUNT_LABEL}${failed} · ${record.status}`;
}

const optionalTime = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Date.parse(value);

function RecordRow(props: { record: UsageRecordRow }) {
  const { record } = props;
  const { usage } = record;
  const kindClass = record.kind === 'token_count' ? 'token_count' : record.outcome;
  return (
    <tr>
      <th scope="row" data-label="Time">
        <time dateTime={new Date(record.time).toISOString()}>{timeFormat.format(record.time)}</time>
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
        <code className="request-id">{record.requestId}</code>
      </td>
    </tr>
  );
}

export function KeyRecordsPage(props: { namespace: string; name: string }) {
  const [form, setForm] = useState<RecordFilterForm>(EMPTY_FILTER);
  const [pageSize, setPageSize] = useState<number>(50);
  // The cursors of the pages shown so far: the last one is the current page's.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const problem = rangeProblem(form);
  const filter = recordFilterOf(props.name, form);
  const records = useQuery({
    ...usageQueries.records(props.namespace, {
      filter,
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
    }),
    enabled: problem === null,
    placeholderData: keepPreviousData,
  });
  const models = useQuery(usageQueries.keyModels(props));
  // The key's label for the heading: the key page's own query, so coming from there costs nothing.
  const key = useQuery(keyQueries.detail(props));
  const label = key.data?.displayName ?? props.name;
  const change = (changes: Partial<RecordFilterForm>) => {
    setForm({ ...form, ...changes });
    setCursors([undefined]);
  };
  const modelNames = new Set(models.data?.models.map((model) => model.model) ?? []);
  if (form.model !== '') modelNames.add(form.model);
  const page = records.data;
  const first = cursors.length - 1;
  return (
    <section aria-labelledby="records-title" className="records-page">
      <p>
        <Link href={`/accounts/${props.namespace}/keys/${encodeURIComponent(props.name)}`}>
          ← {label}
        </Link>
      </p>
      <div className="page-head">
        <h1 id="records-title">Usage records of {label}</h1>
        <a
          className="button"
          href={usageApi.recordsCsvHref({ namespace: props.namespace, filter })}
          download={recordsCsvName({
            namespace: props.namespace,
            key: filter.key,
            model: filter.model,
            outcome: filter.outcome,
            from: optionalTime(filter.from),
            to: optionalTime(filter.to),
            now: Date.now(),
          })}
        >
          Download CSV
        </a>
      </div>
      <form
        className="toolbar record-filters"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <label className="field">
          Model
          <select
            value={form.model}
            onChange={(event) => {
              change({ model: event.target.value });
            }}
          >
            <option value="">All models</option>
            {[...modelNames].sort().map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Outcome
          <select
            value={form.outcome}
            onChange={(event) => {
              change({ outcome: event.target.value as RecordFilterForm['outcome'] });
            }}
          >
            <option value="">All outcomes</option>
            {Object.entries(OUTCOME_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          From
          <input
            type="datetime-local"
            value={form.from}
            aria-invalid={problem !== null}
            onChange={(event) => {
              change({ from: event.target.value });
            }}
          />
        </label>
        <label className="field">
          To
          <input
            type="datetime-local"
            value={form.to}
            aria-invalid={problem !== null}
            aria-describedby={problem === null ? undefined : 'range-problem'}
            onChange={(event) => {
              change({ to: event.target.value });
            }}
          />
        </label>

        {(form.model !== '' || form.outcome !== '' || form.from !== '' || form.to !== '') && (
          <button
            type="button"
            className="quiet"
            onClick={() => {
              change(EMPTY_FILTER);
            }}
          >
            Clear filters
          </button>
        )}
      </form>
      {problem !== null && (
        <p className="field-error" id="range-problem" role="alert">
          {problem}
        </p>
      )}
      <UsageErrorNote error={records.error} />
      {page === undefined && records.error === null && problem === null && (
        <p role="status">Loading records…</p>
      )}
      {page !== undefined && (
        <>
          <p className="count" role="status">
            {page.records.length === 0
              ? 'No records match.'
              : `Records ${first * pageSize + 1}–${first * pageSize + page.records.length}${page.nextCursor === null ? '' : ', more after'}`}
          </p>
          {page.records.length > 0 && (
            <p className="time-zone">{timeZoneCaption(page.records[0]?.time ?? Date.now())}</p>
          )}
          {page.records.length > 0 && (
            <div className="table-wrap">
              <table className="records">
                <caption className="visually-hidden">Usage records of {label}</caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Model</th>
                    <th scope="col" className="num">
                      Input
                    </th>
                    <th scope="col" className="num">
                      Output
                    </th>
                    <th scope="col" className="num">
                      Cache read
                    </th>
                    <th scope="col" className="num">
                      Cache write
                    </th>
                    <th scope="col" className="num">
                      Cost
                    </th>
                    <th scope="col" className="num">
                      Duration
                    </th>
                    <th scope="col" className="num">
                      First byte
                    </th>
                    <th scope="col">Stream</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Request id</th>
                  </tr>
                </thead>
                <tbody aria-busy={records.isPlaceholderData}>
                  {page.records.map((record) => (
                    <RecordRow key={record.requestId} record={record} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              disabled={cursors.length <= 1}
              onClick={() => {
                setCursors(cursors.slice(0, -1));
              }}
            >
              ← Newer
            </button>
            <button
              type="button"
              disabled={page.nextCursor === null || records.isPlaceholderData}
              onClick={() => {
                if (page.nextCursor !== null) setCursors([...cursors, page.nextCursor]);
              }}
            >
              Older →
            </button>
            <label className="inline-size">
              Per page
              <select
                value={pageSize}
                onChange={(event) => {
                  setPageSize(Number(event.target.value));
                  setCursors([undefined]);
                }}
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </label>
          </nav>
        </>
      )}
    </section>
  );
}
