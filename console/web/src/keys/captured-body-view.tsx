/**
 * One captured body (request or response): what was redacted, its size and whether it was cut,
 * then the text (pretty-printed JSON when whole JSON) with Copy.
 */
import type { CapturedBody } from '../api/usage-api.js';
import { CopyBlock } from '../ui/copy-block.js';
import { prettyBodyText, redactionSummary, sizeSummary } from './describe-captured-body.js';

export function CapturedBodyView(props: { title: string; body: CapturedBody | null }) {
  const { body } = props;
  return (
    <section className="captured-body" aria-label={props.title}>
      <h3>{props.title}</h3>
      {body === null ? (
        <p className="muted">Not captured.</p>
      ) : (
        <>
          <ul className="body-facts">
            <li className={body.redactions.length > 0 ? 'redacted' : undefined}>
              {redactionSummary(body.redactions)}
            </li>
            <li>{sizeSummary(body)}</li>
            {body.truncated && <li className="truncated">Truncated</li>}
            <li>{body.contentType === '' ? 'no content type' : body.contentType}</li>
          </ul>
          <CopyBlock label={props.title} text={prettyBodyText(body)} wrap />
        </>
      )}
    </section>
  );
}
