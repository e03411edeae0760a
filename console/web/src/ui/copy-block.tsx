/**
 * A block of text with its label and a Copy button ("Copied" once copied), in a `<pre>` that keeps
 * its lines and scrolls sideways (or, with `wrap`, wraps long lines and scrolls down).
 */
import { useState } from 'react';

export function CopyBlock(props: { label: string; text: string; wrap?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className={props.wrap === true ? 'copy-block wrap' : 'copy-block'}>
      <div className="copy-head">
        <span>{props.label}</span>
        <button
          type="button"
          className="quiet"
          aria-label={`Copy ${props.label}`}
          onClick={() => {
            void navigator.clipboard.writeText(props.text).then(() => {
              setCopied(true);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre tabIndex={0} aria-label={props.label}>
        <code>{props.text}</code>
      </pre>
    </div>
  );
}
