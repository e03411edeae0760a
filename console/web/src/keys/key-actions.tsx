/**
 * The key page's action bar: "Edit", "Disable"/"Enable", and "Reset quota", "Rotate" and "Delete",
 * each after a confirmation; then the refusal, or what was done.
 */
import { Link } from 'wouter';
import type { KeyAction, KeyView } from '../api/console-api.js';
import { ConfirmAction } from '../ui/confirm-action.js';
import { ErrorNote } from '../ui/error-note.js';
import type { KeyRef } from './key-queries.js';
import type { KeyActions } from './use-key-actions.js';

const DONE: Record<KeyAction, string> = {
  enable: 'Done: the key is enabled.',
  disable: 'Done: the key is disabled.',
  'reset-quota': 'Done: the used quota starts again from $0.',
};

export function KeyActionBar(props: { apiKey: KeyView; keyRef: KeyRef; actions: KeyActions }) {
  const { apiKey } = props;
  const { action, rotate, remove, busy } = props.actions;
  const toggle: KeyAction = apiKey.state === 'disabled' ? 'enable' : 'disable';
  return (
    <div className="actions key-actions">
      <Link
        className="button"
        href={`/accounts/${props.keyRef.namespace}/keys/${props.keyRef.name}/edit`}
      >
        Edit
      </Link>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          action.mutate(toggle);
        }}
      >
        {toggle === 'enable' ? 'Enable' : 'Disable'}
      </button>
      <ConfirmAction
        label="Reset quota"
        question={`Start the used quota of ${apiKey.displayName} again from $0?`}
        confirmLabel="Reset the quota"
        disabled={busy}
        onConfirm={() => {
          action.mutate('reset-quota');
        }}
      />
      <ConfirmAction
        label="Rotate"
        question="Make a new value? The current one stops working within moments."
        confirmLabel="Rotate the value"
        disabled={busy}
        onConfirm={() => {
          rotate.mutate();
        }}
      />
      <ConfirmAction
        label="Delete"
        question={`Delete ${apiKey.displayName}? Clients using it are refused at once.`}
        confirmLabel="Delete the key"
        danger
        disabled={busy}
        onConfirm={() => {
          remove.mutate();
        }}
      />
    </div>
  );
}

/** The actions' refusal, or what the last enable, disable or reset did. */
export function KeyActionOutcome(props: { actions: KeyActions }) {
  const { action, error } = props.actions;
  return (
    <>
      {error !== null && <ErrorNote error={error} />}
      {action.isSuccess && (
        <p role="status" className="hint">
          {DONE[action.variables]}
        </p>
      )}
    </>
  );
}
