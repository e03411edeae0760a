/**
 * The usage records of one key, newest first: filters (model, outcome, time range), pages of the
 * records API (its cursor; "Newer" goes back through the cursors seen), and the filtered records
 * as CSV, named after the filter. Token counts say so instead of "Success"; times are in the
 * browser's zone, named above the table.
 */
import { Link } from 'wouter';
import { timeZoneCaption } from '../format/format-usage.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { RecordFilterBar } from './record-filter-bar.js';
import { RecordsCsvLink } from './records-csv-link.js';
import { RecordsPager } from './records-pager.js';
import { RecordsTable } from './records-table.js';
import { useKeyRecords } from './use-key-records.js';
import './records.css';

export function KeyRecordsPage(props: { namespace: string; name: string }) {
  const { form, change, problem, filter, records, modelNames, label, paging } =
    useKeyRecords(props);
  const page = records.data;
  const first = paging.index * paging.pageSize;
  return (
    <section aria-labelledby="records-title" className="records-page">
      <p>
        <Link href={`/accounts/${props.namespace}/keys/${encodeURIComponent(props.name)}`}>
          ← {label}
        </Link>
      </p>
      <div className="page-head">
        <h1 id="records-title">Usage records of {label}</h1>
        <RecordsCsvLink namespace={props.namespace} filter={filter} />
      </div>
      <RecordFilterBar form={form} modelNames={modelNames} problem={problem} change={change} />
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
              : `Records ${first + 1}–${first + page.records.length}${page.nextCursor === null ? '' : ', more after'}`}
          </p>
          {page.records.length > 0 && (
            <p className="time-zone">{timeZoneCaption(page.records[0]?.time ?? Date.now())}</p>
          )}
          {page.records.length > 0 && (
            <RecordsTable
              namespace={props.namespace}
              name={props.name}
              label={label}
              records={page.records}
              busy={records.isPlaceholderData}
            />
          )}
          <RecordsPager
            paging={paging}
            nextCursor={page.nextCursor}
            busy={records.isPlaceholderData}
          />
        </>
      )}
    </section>
  );
}
