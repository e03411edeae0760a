/**
 * "Delete", then in place the question with "Delete <name>" (focused) and "Cancel"; Cancel and
 * Escape put the focus back on "Delete".
 */
import { ConfirmAction } from '../ui/confirm-action.js';

export function ConfirmDelete(props: {
  /** What is deleted, e.g. "Group anthropic". */
  what: string;
  consequence: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  return (
    <ConfirmAction
      label="Delete"
      triggerName={`Delete ${props.what}`}
      groupName={`Delete ${props.what}?`}
      question={`Delete ${props.what}? ${props.consequence}`}
      confirmLabel={`Delete ${props.what}`}
      danger
      {...(props.disabled === undefined ? {} : { disabled: props.disabled })}
      onConfirm={props.onConfirm}
    />
  );
}
