/**
 * A button whose action asks first: the question, then "Confirm" or "Cancel", in place. Cancel
 * (or Escape) puts the focus back on the button.
 */
import { useEffect, useRef, useState } from 'react';

export function ConfirmAction(props: {
  label: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  disabled?: boolean;
  /** The button's accessible name when its text alone is ambiguous (e.g. which item "Delete" deletes). */
  triggerName?: string;
  /** The question's accessible name (default: the label). */
  groupName?: string;
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
        className={props.danger === true ? 'danger' : undefined}
        aria-label={props.triggerName}
        disabled={props.disabled}
        onClick={() => {
          setAsking(true);
        }}
      >
        {props.label}
      </button>
    );
  }
  return (
    <div
      className="confirm"
      role="group"
      aria-label={props.groupName ?? props.label}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <p>{props.question}</p>
      <button
        type="button"
        className={props.danger === true ? 'danger primary' : 'primary'}
        autoFocus
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" className="quiet" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}
