/**
 * The record's captured bodies, read only by users allowed `get apikeys/captures` on the key: the
 * request and the response with their redactions; "Not captured" when the call was not (or its
 * capture expired); a plain refusal for users without the verb.
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/console-api.js';
import type { RecordRef } from '../api/usage-api.js';
import { UsageErrorNote } from '../ui/usage-unavailable.js';
import { usageQueries } from '../usage/usage-queries.js';
import { CapturedBodyView } from './captured-body-view.js';

export const NOT_ALLOWED_TEXT = 'You are not allowed to see captured bodies.';

const statusOf = (error: Error | null) => (error instanceof ApiError ? error.status : null);

export function CapturedCallPanel(props: { record: RecordRef }) {
  const capture = useQuery(usageQueries.capture(props.record));
  const status = statusOf(capture.error);
  return (
    <section className="card captured-call" aria-labelledby="capture-title">
      <h2 id="capture-title">Captured call</h2>
      {capture.data === undefined && capture.error === null && (
        <p role="status">Loading the capture…</p>
      )}
      {status === 403 && (
        <p className="not-allowed" role="status">
          {NOT_ALLOWED_TEXT} Captured bodies need the verb <code>get</code> on{' '}
          <code>apikeys/captures</code> for this key (the role <code>tollgate-capture-reader</code>
          ).
        </p>
      )}
      {status === 404 && (
        <p role="status">Not captured: capture was off for this key, or the capture has expired.</p>
      )}
      {status !== 403 && status !== 404 && <UsageErrorNote error={capture.error} />}
      {capture.data !== undefined && (
        <>
          <p className="muted">
            {capture.data.path}
            {capture.data.streamed ? ' · streamed (the reply as the reassembled message)' : ''} ·
            kept until{' '}
            <time dateTime={capture.data.expiresAt}>
              {new Date(capture.data.expiresAt).toLocaleString()}
            </time>
          </p>
          <CapturedBodyView title="Request" body={capture.data.request} />
          <CapturedBodyView title="Response" body={capture.data.response} />
        </>
      )}
    </section>
  );
}
