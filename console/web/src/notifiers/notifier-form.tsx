/**
 * Creating or editing a notifier: the target (a signed webhook or a Slack incoming webhook), the
 * Secret value (write-only: sent once, kept in a Secret, never shown again) and the events.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { notifierApi, type NotifierScope, type NotifierView } from '../api/notifier-api.js';
import { useSession } from '../auth/use-session.js';
import { ErrorNote } from '../ui/error-note.js';
import { SelectField } from '../ui/select-field.js';
import { TextField } from '../ui/text-field.js';
import {
  EMPTY_NOTIFIER_FORM,
  formOf,
  parseThresholds,
  specKeepingSecret,
  specOf,
  type NotifierForm as FormState,
} from './notifier-form-state.js';
import { notifierKeys } from './notifier-queries.js';
// The administration forms' container (spacing between fields, grids), on the account page too.
import '../admin/admin.css';

function Check(props: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => {
          props.onChange(event.target.checked);
        }}
      />{' '}
      {props.label}
    </label>
  );
}

export function NotifierForm(props: {
  scope: NotifierScope;
  editing: NotifierView | null;
  onDone: (name: string) => void;
  onCancel: () => void;
}) {
  const cluster = props.scope === null;
  const editing = props.editing;
  const [form, setForm] = useState<FormState>(
    editing === null ? EMPTY_NOTIFIER_FORM : formOf(editing.name, editing.spec),
  );
  const [thresholdError, setThresholdError] = useState<string | undefined>(undefined);
  const update = (change: Partial<FormState>) => {
    setForm((current) => ({ ...current, ...change }));
  };
  const client = useQueryClient();
  const { me } = useSession();
  const save = useMutation({
    mutationFn: () => {
      const csrfToken = me?.csrfToken ?? '';
      const secretValue = form.secretValue.trim() === '' ? {} : { secretValue: form.secretValue };
      if (editing === null) {
        return notifierApi.create({
          scope: props.scope,
          body: { name: form.name.trim(), spec: specOf(form, cluster), ...secretValue },
          csrfToken,
        });
      }
      const spec =
        form.secretValue.trim() === ''
          ? specKeepingSecret(form, { cluster, current: editing.spec })
          : specOf(form, cluster);
      return notifierApi.update({
        scope: props.scope,
        name: editing.name,
        body: {
          spec,
          ...secretValue,
          ...(editing.generation === undefined ? {} : { generation: editing.generation }),
        },
        csrfToken,
      });
    },
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: notifierKeys.list(props.scope) });
      props.onDone(saved.name);
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const windows = form.keyWindows || form.memberWindows || form.planWindows;
    if (windows && parseThresholds(form.thresholds) === null) {
      setThresholdError('Whole percentages from 1 to 1000, separated by commas, such as 80, 100.');
      return;
    }
    setThresholdError(undefined);
    save.mutate();
  };
  const secretLabel = form.target === 'slack' ? 'Slack incoming-webhook URL' : 'Signing secret';
  return (
    <form
      className="admin-form notifier-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="notifier-form-title"
    >
      <h2 id="notifier-form-title">
        {editing === null ? 'New notifier' : `Edit notifier ${editing.name}`}
      </h2>
      {editing === null && (
        <TextField
          label="Name"
          value={form.name}
          required
          hint="Lower-case letters, digits and dashes."
          onChange={(name) => {
            update({ name });
          }}
        />
      )}
      <SelectField
        label="Send to"
        value={form.target}
        options={[
          { value: 'webhook', label: 'Webhook (signed JSON)' },
          { value: 'slack', label: 'Slack incoming webhook' },
        ]}
        onChange={(target) => {
          update({ target: target === 'slack' ? 'slack' : 'webhook' });
        }}
      />
      {form.target === 'webhook' && (
        <TextField
          label="Webhook URL"
          value={form.url}
          type="url"
          required
          placeholder="https://hooks.example.com/tollgate"
          onChange={(url) => {
            update({ url });
          }}
        />
      )}
      <TextField
        label={secretLabel}
        value={form.secretValue}
        type="password"
        autoComplete="off"
        required={editing === null}
        hint={
          editing === null
            ? 'Kept in a Secret; never shown again.'
            : 'Leave empty to keep the current one; a value entered replaces it.'
        }
        onChange={(secretValue) => {
          update({ secretValue });
        }}
      />
      <fieldset>
        <legend>Events</legend>
        <Check
          label="Key windows (5-hour, daily, 7-day, quota)"
          checked={form.keyWindows}
          onChange={(keyWindows) => {
            update({ keyWindows });
          }}
        />
        <Check
          label="Member windows"
          checked={form.memberWindows}
          onChange={(memberWindows) => {
            update({ memberWindows });
          }}
        />
        <Check
          label="Plan windows"
          checked={form.planWindows}
          onChange={(planWindows) => {
            update({ planWindows });
          }}
        />
        <TextField
          label="Window thresholds (%)"
          value={form.thresholds}
          error={thresholdError}
          hint="Each fires once per window period."
          onChange={(thresholds) => {
            setThresholdError(undefined);
            update({ thresholds });
          }}
        />
        <div className="grid three">
          <TextField
            label="Balance below (USD)"
            inputMode="decimal"
            value={form.balanceBelowUSD}
            hint="Empty: not watched."
            onChange={(balanceBelowUSD) => {
              update({ balanceBelowUSD });
            }}
          />
          <TextField
            label="Key expiring within (days)"
            inputMode="numeric"
            value={form.keyExpiringDays}
            hint="Empty: not watched."
            onChange={(keyExpiringDays) => {
              update({ keyExpiringDays });
            }}
          />
          <TextField
            label="Subscription ends within (days)"
            inputMode="numeric"
            value={form.subscriptionExpiringDays}
            hint="Empty: not watched."
            onChange={(subscriptionExpiringDays) => {
              update({ subscriptionExpiringDays });
            }}
          />
        </div>
        {cluster && (
          <>
            <Check
              label="Upstream credentials refused"
              checked={form.upstreamCredentialsInvalid}
              onChange={(upstreamCredentialsInvalid) => {
                update({ upstreamCredentialsInvalid });
              }}
            />
            <Check
              label="Upstream circuit open"
              checked={form.upstreamCircuitOpen}
              onChange={(upstreamCircuitOpen) => {
                update({ upstreamCircuitOpen });
              }}
            />
          </>
        )}
      </fieldset>
      {save.error !== null && <ErrorNote error={save.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing === null ? 'Create notifier' : 'Save'}
        </button>
        <button type="button" className="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
