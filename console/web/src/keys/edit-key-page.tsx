/**
 * Edit a key: its name (the display name; the object name stays), group, limits, client
 * addresses, expiry, enabled (the value stays; rotate changes the value). The form is filled from the key read when the page opens and sent with that
 * read's generation: a key whose settings changed meanwhile is refused (409); the operator's status
 * writes (readiness, usage) do not count.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import { ApiError, consoleApi, type KeyView, type Me } from '../api/console-api.js';
import { ErrorNote } from '../ui/error-note.js';
import { GroupField } from './group-field.js';
import { KeyFormFields, KeyNameField } from './key-form-fields.js';
import {
  editKeyBody,
  formFieldOf,
  keyFormOf,
  validateKeyForm,
  type KeyForm,
} from './validate-key-form.js';
import { keyKeys, keyQueries } from './key-queries.js';

function EditKeyForm(props: { apiKey: KeyView; me: Me }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const { namespace, name } = props.apiKey;
  const [form, setForm] = useState<KeyForm>(() => keyFormOf(props.apiKey));
  // The version the form was filled from (a later read of the key does not change what is edited).
  const [generation] = useState(props.apiKey.generation);
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validateKeyForm(form, Date.now()), [form]);
  const save = useMutation({
    mutationFn: () =>
      consoleApi.editKey({
        namespace,
        name,
        body: editKeyBody(form, generation),
        csrfToken: props.me.csrfToken,
      }),
    onSuccess: async (updated) => {
      client.setQueryData(keyKeys.detail({ namespace, name }), updated);
      await client.invalidateQueries({ queryKey: keyKeys.list(namespace) });
      navigate(`/accounts/${namespace}/keys/${name}`);
    },
  });
  const set =
    <F extends keyof KeyForm>(field: F) =>
    (value: KeyForm[F]) => {
      setForm((current) => ({ ...current, [field]: value }));
      if (save.isError) save.reset();
    };
  const serverError = save.error instanceof ApiError ? save.error : undefined;
  const serverField = formFieldOf(serverError?.field);
  const shown = (field: keyof KeyForm): string | undefined =>
    serverField === field ? serverError?.message : submitted ? errors[field] : undefined;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length === 0) save.mutate();
  };
  return (
    <form className="card key-form" onSubmit={submit} noValidate>
      <KeyNameField form={form} set={set} error={shown('name')} objectName={name} />
      <GroupField value={form.groupName} onChange={set('groupName')} error={shown('groupName')} />
      <KeyFormFields form={form} set={set} shown={shown} />
      {save.error !== null && serverField === undefined && (
        <ErrorNote
          error={
            serverError?.code === 'CONFLICT'
              ? new Error(
                  'Someone changed this key’s settings since this page was opened: reload it, then edit again.',
                )
              : save.error
          }
        />
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button
          type="button"
          className="quiet"
          onClick={() => {
            navigate(`/accounts/${namespace}/keys/${name}`);
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

export function EditKeyPage(props: { namespace: string; name: string; me: Me }) {
  const key = useQuery({
    ...keyQueries.detail(props),
    refetchOnMount: 'always',
  });
  // Filled from the key as it is now, not from a copy cached by an earlier page.
  const fresh = key.isFetchedAfterMount ? key.data : undefined;
  return (
    <section aria-labelledby="edit-title">
      <h1 id="edit-title">Edit key {key.data?.displayName ?? props.name}</h1>
      {key.data !== undefined && key.data.displayName !== props.name && (
        <p className="hint object-name">{props.name}</p>
      )}
      {key.error !== null && <ErrorNote error={key.error} />}
      {fresh === undefined ? (
        key.error === null && <p role="status">Loading the key…</p>
      ) : (
        <EditKeyForm apiKey={fresh} me={props.me} />
      )}
    </section>
  );
}
