/**
 * The new key's value, shown once, with a copy button and the warning. It opens in view with the
 * focus on its heading, wherever the form or the key page was scrolled to.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { CreatedKey } from '../api/console-api.js';
import { UseKeyPanel } from './use-key-panel.js';

export function CreatedKeyValue(props: {
  created: CreatedKey;
  namespace: string;
  rotated?: boolean;
}) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const heading = useRef<HTMLHeadingElement>(null);
  const valueRow = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // From the top of the page (the form's scroll position would hide the value), then, should
    // the heading or the value and its Copy button still be out of view, scrolled to them.
    window.scrollTo(0, 0);
    heading.current?.scrollIntoView({ block: 'nearest' });
    valueRow.current?.scrollIntoView({ block: 'nearest' });
    heading.current?.focus({ preventScroll: true });
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.created.value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="card created" aria-labelledby="created-title">
      <h2 id="created-title" ref={heading} tabIndex={-1}>
        Key {props.created.key.displayName} {props.rotated === true ? 'rotated' : 'created'}
      </h2>
      <p className="warning" role="note">
        Copy the key value now: you will not see it again.
      </p>
      <div className="value-row" ref={valueRow}>
        <code className="key-value" aria-label="New key value">
          {props.created.value}
        </code>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" className="hint">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser refused the clipboard: select the value and copy it by hand.'
            : ''}
      </p>
      <Link className="button primary" href={`/accounts/${props.namespace}/keys`}>
        Back to the keys
      </Link>
      {props.created.clientConfig !== null && <UseKeyPanel config={props.created.clientConfig} />}
    </section>
  );
}
