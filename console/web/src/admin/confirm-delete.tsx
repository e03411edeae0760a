/**
 * "Delete", then in place the question with "Delete <name>" (focused) and "Cancel"; Cancel and
 * Escape put the focus back on "Delete".
 */
import { useEffect, useRef, useState } from 'react';

export function ConfirmDelete(props: {
  /** What is deleted, e.g. "Group anthropic". */
  what: string;
  consequence: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [returnFocus, setReturnFocus] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!asking && returnFocus) {
      trigger.current?.focus();
      setReturnFocus(false);
    }
  }, [asking, returnFocus]);
  const cancel = () => {
    setAsking(false);
    setReturnFocus(true);
  };
  if (!asking) {
    return (
      <button
        ref={trigger}
        type="button"
        className="danger"
        aria-label={`Delete ${props.what}`}
        disabled={props.disabled}
        onClick={() => {
          setAsking(true);
        }}
      >
        Delete
      </button>
    );
  }
  return (
    <div
      className="confirm"
      role="group"
      aria-label={`Delete ${props.what}?`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <p>
        Delete {props.what}? {props.consequence}
      </p>
      <button
        type="button"
        className="danger primary"
        autoFocus
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        Delete {props.what}
      </button>
      <button type="button" className="quiet" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}
