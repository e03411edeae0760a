/**
 * Create a key with every field: name (a free label; the object name derived from it is shown
 * under the field and can be chosen under "Advanced"), group (its platform and multiplier), an optional own value,
 * quota and window caps, IP allow and deny lists, expiry (date-time or validity), enabled. Fields
 * are checked as they are typed; server refusals are shown next to the field that caused them.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import { ApiError, consoleApi, type CreateKeyBody, type Me } from '../api/console-api.js';
import { ErrorNote } from '../ui/error-note.js';
import { AccountPicker } from '../ui/account-picker.js';
import { CreatedKeyValue } from './created-key-value.js';
import { GroupField } from './group-field.js';
import { KeyFormFields, KeyNameField } from './key-form-fields.js';
import { TextField } from '../ui/text-field.js';
import {
  createKeyBody,
  emptyKeyForm,
  formFieldOf,
  objectNameOf,
  randomSuffix,
  validateKeyForm,
  type KeyForm,
} from './validate-key-form.js';
import { keyKeys } from './key-queries.js';

export function CreateKeyPage(props: { namespace: string; me: Me }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<KeyForm>(() => emptyKeyForm(props.namespace, randomSuffix()));
  const [touched, setTouched] = useState<Partial<Record<keyof KeyForm, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const errors = useMemo(() => validateKeyForm(form, Date.now()), [form]);
  const create = useMutation({
    mutationFn: (body: CreateKeyBody) =>
      consoleApi.createKey({ namespace: form.account, body, csrfToken: props.me.csrfToken }),
    onSuccess: () => client.invalidateQueries({ queryKey: keyKeys.list(form.account) }),
  });
  const set =
    <F extends keyof KeyForm>(field: F) =>
    (value: KeyForm[F]) => {
      setForm((current) => ({ ...current, [field]: value }));
      setTouched((current) => ({ ...current, [field]: true }));
      // The server's refusal stays until the input changes.
      if (create.isError) create.reset();
    };
  const serverError = create.error instanceof ApiError ? create.error : undefined;
  // A taken object name is refused as a conflict without a field: it belongs next to that name.
  const serverField =
    serverError?.code === 'CONFLICT' ? 'objectName' : formFieldOf(serverError?.field);
  const serverMessage =
    serverError?.code === 'CONFLICT'
      ? `A key named "${create.variables?.name ?? ''}" already exists in this account: choose another object name.`
      : serverError?.message;
  const shown = (field: keyof KeyForm): string | undefined => {
    if (serverField === field && create.isError) return serverMessage;
    // The own value is checked live, as it is typed; the others once left or on submit.
    const live = field === 'value' && form.value !== '';
    return submitted || touched[field] === true || live ? errors[field] : undefined;
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    create.mutate(createKeyBody(form));
  };
  if (create.data !== undefined) {
    return <CreatedKeyValue created={create.data} namespace={form.account} />;
  }
  return (
    <section aria-labelledby="create-title">
      <h1 id="create-title">Create key</h1>
      <form className="card key-form" onSubmit={submit} noValidate>
        <AccountPicker
          value={form.account}
          onChange={(namespace) => {
            set('account')(namespace);
            navigate(`/accounts/${namespace}/keys/new`, { replace: true });
          }}
          error={shown('account')}
        />
        <KeyNameField form={form} set={set} error={shown('name')} objectName={objectNameOf(form)} />
        <details
          className="advanced"
          // Opened by hand, or by an error of the object name (a taken one).
          open={advanced || shown('objectName') !== undefined}
          onToggle={(event) => {
            setAdvanced(event.currentTarget.open);
          }}
        >
          <summary>Advanced</summary>
          <TextField
            label="Object name"
            value={form.objectName}
            onChange={set('objectName')}
            error={shown('objectName')}
            placeholder={objectNameOf({ ...form, objectName: '' })}
            hint="The key's name in Kubernetes (kubectl, URLs); it cannot change later. Empty: derived from the name."
          />
        </details>
        <GroupField value={form.groupName} onChange={set('groupName')} error={shown('groupName')} />
        <TextField
          label="Key value"
          value={form.value}
          onChange={set('value')}
          error={shown('value')}
          hint="Optional: your own value, at least 16 letters, digits, _ or -. Empty: one is generated."
        />
        <KeyFormFields form={form} set={set} shown={shown} />
        {create.error !== null && serverField === undefined && <ErrorNote error={create.error} />}
        {submitted && Object.keys(errors).length > 0 && (
          <p className="error-note" role="alert">
            Fix the fields marked above, then create the key.
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Create
          </button>
          <button
            type="button"
            className="quiet"
            onClick={() => {
              navigate(`/accounts/${form.account}/keys`);
            }}
          >
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
