/** A button whose action asks first: the question, then "Confirm" or "Cancel", in place. */
import { useState } from 'react';

export function ConfirmAction(props: {
  label: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className={props.danger === true ? 'danger' : undefined}
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
    <div className="confirm" role="group" aria-label={props.label}>
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
      <button
        type="button"
        className="quiet"
        onClick={() => {
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </div>
  );
}
