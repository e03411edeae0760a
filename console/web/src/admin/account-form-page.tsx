/**
 * Create or edit a namespace's Account: display name, credit (the balance's limit), the
 * namespace's concurrency, its subscription to a Plan and its member limits. Refusals are shown next to the field they name; the input stays.
 */
import type { SyntheticEvent } from 'react';
import { useSearch } from 'wouter';
import type { AdminObject } from '../api/admin-api.js';
import { useAccess } from '../auth/use-access.js';
import { TextField } from '../ui/text-field.js';
import {
  accountFormFrom,
  accountFormProblem,
  accountSpecFrom,
  type AccountForm,
} from './account-form-state.js';
import {
  ACCOUNT_PLAN_PATHS,
  MemberLimitsFieldset,
  SubscriptionFieldset,
} from './account-plan-fieldsets.js';
import { AdminFormLoader, FormActions, NameField } from './admin-form-parts.js';
import { useAdminForm } from './use-admin-form.js';

const PATHS = [
  'namespace',
  'spec.displayName',
  'spec.creditUSD',
  'spec.maxConcurrentRequests',
  ...ACCOUNT_PLAN_PATHS,
] as const;

export function AccountFormPage(props: { namespace?: string }) {
  return (
    <AdminFormLoader
      kind="accounts"
      wanted={props.namespace !== undefined}
      find={(item) => item.namespace === props.namespace}
      missing={`The namespace ${props.namespace ?? ''} has no Account.`}
      render={(current) => <AccountFormBody current={current} />}
    />
  );
}

function AccountFormBody(props: { current: AdminObject | undefined }) {
  // `?namespace=` (the Account picker's "create one"): the namespace filled in.
  const asked = new URLSearchParams(useSearch()).get('namespace') ?? '';
  const { editing, form, update, setProblem, shown, save, send } = useAdminForm<AccountForm>({
    kind: 'accounts',
    current: props.current,
    initial: () => accountFormFrom(props.current?.namespace ?? asked, props.current?.spec),
    paths: PATHS,
  });
  const mayListPlans = useAccess()?.plans.list === true;
  const section = { form, update, error: (path: string) => shown.byPath[path] };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (form.namespace.trim() === '') {
      setProblem({ field: 'namespace', message: 'Enter the namespace of the account.' });
      return;
    }
    const problem = accountFormProblem(form);
    if (problem !== null) {
      setProblem(problem);
      return;
    }
    send(form.namespace.trim(), { spec: accountSpecFrom(form) });
  };
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="admin-form-title">
      <h2 id="admin-form-title">{editing ? `Edit account ${form.namespace}` : 'Create account'}</h2>
      <NameField
        editing={editing}
        label="Namespace"
        value={form.namespace}
        error={shown.byPath.namespace}
        hint="An existing namespace; its keys draw on this account."
        onChange={(namespace) => {
          update({ namespace });
        }}
      />
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
      <SubscriptionFieldset {...section} mayListPlans={mayListPlans} />
      <MemberLimitsFieldset {...section} />
      <FormActions
        editing={editing}
        pending={save.isPending}
        cancelHref="/accounts"
        rest={shown.rest}
      />
    </form>
  );
}
