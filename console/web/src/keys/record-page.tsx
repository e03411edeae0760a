/**
 * One usage record's page (linked from its row on the records page): its figures, and for users
 * allowed to, the captured request and response.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { RecordRef } from '../api/usage-api.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { usageQueries } from '../usage/usage-queries.js';
import { keyQueries } from './key-queries.js';
import { CapturedCallPanel } from './captured-call-panel.js';
import { RecordFigures } from './record-figures.js';
import './records.css';
import './record-page.css';

export function RecordPage(props: RecordRef) {
  const record = useQuery(usageQueries.record(props));
  // The key's label: the key page's own query, so coming from there costs nothing.
  const key = useQuery(keyQueries.detail({ namespace: props.namespace, name: props.name }));
  const label = key.data?.displayName ?? props.name;
  const recordsHref = `/accounts/${props.namespace}/keys/${encodeURIComponent(props.name)}/records`;
  return (
    <section aria-labelledby="record-title" className="records-page record-page">
      <p>
        <Link href={recordsHref}>← Usage records of {label}</Link>
      </p>
      <h1 id="record-title">
        Record <code className="request-id">{props.requestId}</code>
      </h1>
      <UsageErrorNote error={record.error} />
      {record.data === undefined && record.error === null && (
        <p role="status">Loading the record…</p>
      )}
      {record.data !== undefined && <RecordFigures record={record.data} />}
      <CapturedCallPanel record={props} />
    </section>
  );
}
