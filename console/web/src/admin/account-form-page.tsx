/**
 * Create or edit a namespace's Account: display name, credit (the balance's limit) and the
 * namespace's concurrency. Refusals are shown next to the field they name; the input stays.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { Link } from 'wouter';
import { adminApi, type AdminObject } from '../api/admin-api.js';
import { TextField } from '../keys/text-field.js';
import { ErrorNote } from '../shell/error-note.js';
import { accountFormFrom, accountSpecFrom, type AccountForm } from './account-form-state.js';
import { localError, placeError } from './field-errors.js';
import type { FormProblem } from './spec-values.js';
import { adminListKey, useAdminSave } from './use-admin-save.js';

const PATHS = [
  'namespace',
  'spec.displayName',
  'spec.creditUSD',
  'spec.maxConcurrentRequests',
] as const;

export function AccountFormPage(props: { namespace?: string }) {
  const accounts = useQuery({
    queryKey: adminListKey('accounts'),
    queryFn: () => adminApi.list('accounts'),
  });
  if (accounts.error !== null) return <ErrorNote error={accounts.error} />;
  if (accounts.data === undefined) return <p role="status">Loading accounts…</p>;
  const current = accounts.data.items.find((item) => item.namespace === props.namespace);
  if (props.namespace !== undefined && current === undefined) {
    return <p role="alert">The namespace {props.namespace} has no Account.</p>;
  }
  return <AccountFormBody key={current?.generation ?? 'new'} current={current} />;
}

function AccountFormBody(props: { current: AdminObject | undefined }) {
  const editing = props.current !== undefined;
  const [form, setForm] = useState<AccountForm>(() =>
    accountFormFrom(props.current?.namespace ?? '', props.current?.spec),
  );
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const save = useAdminSave('accounts', editing);
  const update = (change: Partial<AccountForm>) => {
    setForm((previous) => ({ ...previous, ...change }));
    setProblem(null);
    if (save.error !== null) save.reset();
  };
  const shown = placeError(problem === null ? save.error : localError(problem), PATHS);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (form.namespace.trim() === '') {
      setProblem({ field: 'namespace', message: 'Enter the namespace of the account.' });
      return;
    }
    save.mutate({
      name: form.namespace.trim(),
      body: {
        spec: accountSpecFrom(form),
        ...(props.current?.generation === undefined
          ? {}
          : { generation: props.current.generation }),
      },
    });
  };
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="admin-form-title">
      <h2 id="admin-form-title">{editing ? `Edit account ${form.namespace}` : 'Create account'}</h2>
      {editing ? (
        <p className="fixed">
          <span className="hint">Namespace</span> {form.namespace}
        </p>
      ) : (
        <TextField
          label="Namespace"
          required
          value={form.namespace}
          error={shown.byPath.namespace}
          hint="An existing namespace; its keys draw on this account."
          onChange={(namespace) => {
            update({ namespace });
          }}
        />
      )}
      <TextField
        label="Display name"
        value={form.displayName}
        error={shown.byPath['spec.displayName']}
        onChange={(displayName) => {
          update({ displayName });
        }}
      />
      <div className="grid two">
        <TextField
          label="Credit (USD)"
          inputMode="decimal"
          value={form.creditUSD}
          error={shown.byPath['spec.creditUSD']}
          hint="Balance = credit − spent. Empty: no balance limit; 0: no credit."
          onChange={(creditUSD) => {
            update({ creditUSD });
          }}
        />
        <TextField
          label="Concurrent requests"
          inputMode="numeric"
          value={form.maxConcurrentRequests}
          error={shown.byPath['spec.maxConcurrentRequests']}
          hint="For all keys of the namespace; empty or 0: unlimited."
          onChange={(maxConcurrentRequests) => {
            update({ maxConcurrentRequests });
          }}
        />
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing ? 'Save' : 'Create'}
        </button>
        <Link href="/accounts" className="button quiet">
          Cancel
        </Link>
      </div>
      {shown.rest !== null && <ErrorNote error={shown.rest} />}
    </form>
  );
}
