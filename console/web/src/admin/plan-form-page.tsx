/**
 * Create or edit a Plan: display name, the 5-hour, daily, weekly and monthly caps, the models its
 * accounts may use, their concurrency, and the price of one period (shown, not charged). Checked
 * with the CRD's rules before sending; refusals are shown next to the field they name.
 */
import type { SyntheticEvent } from 'react';
import type { AdminObject } from '../api/admin-api.js';
import { TextField } from '../ui/text-field.js';
import { AdminFormLoader, FormActions, NameField } from './admin-form-parts.js';
import {
  PLAN_LIMIT_LABELS,
  PLAN_LIMITS,
  planFormFrom,
  planFormProblem,
  planSpecFrom,
  type PlanForm,
} from './plan-form-state.js';
import { useAdminForm } from './use-admin-form.js';

const PATHS = [
  'name',
  'spec.displayName',
  ...PLAN_LIMITS.map((limit) => `spec.limits.${limit}`),
  'spec.limits',
  'spec.models.allow',
  'spec.maxConcurrentRequests',
  'spec.priceUSD',
  'spec.periodDays',
] as const;

export function PlanFormPage(props: { name?: string }) {
  return (
    <AdminFormLoader
      kind="plans"
      wanted={props.name !== undefined}
      find={(item) => item.name === props.name}
      missing={`There is no Plan named ${props.name ?? ''}.`}
      render={(current) => <PlanFormBody current={current} />}
    />
  );
}

function PlanFormBody(props: { current: AdminObject | undefined }) {
  const { editing, form, update, setProblem, shown, save, send } = useAdminForm<PlanForm>({
    kind: 'plans',
    current: props.current,
    initial: () => planFormFrom(props.current?.name ?? '', props.current?.spec),
    paths: PATHS,
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const problem = planFormProblem(form);
    if (problem !== null) {
      setProblem(problem);
      return;
    }
    send(form.name.trim(), { spec: planSpecFrom(form) });
  };
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="admin-form-title">
      <h2 id="admin-form-title">{editing ? `Edit plan ${form.name}` : 'Create plan'}</h2>
      <NameField
        editing={editing}
        label="Name"
        value={form.name}
        error={shown.byPath.name}
        hint="Lower-case letters, digits and dashes; accounts subscribe by this name."
        onChange={(name) => {
          update({ name });
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
      <fieldset>
        <legend>Windows</legend>
        <p className="hint">
          Spend of the whole account per window; empty: no cap. Days, weeks (from Monday) and months
          follow the account's time zone; the 5-hour window rolls as on keys.
        </p>
        <div className="grid four">
          {PLAN_LIMITS.map((limit) => (
            <TextField
              key={limit}
              label={PLAN_LIMIT_LABELS[limit]}
              inputMode="decimal"
              value={form.limits[limit]}
              error={shown.byPath[`spec.limits.${limit}`]}
              onChange={(value) => {
                update({ limits: { ...form.limits, [limit]: value } });
              }}
            />
          ))}
        </div>
      </fieldset>
      <TextField
        label="Models"
        multiline
        value={form.models}
        error={shown.byPath['spec.models.allow']}
        hint="One glob per line, such as claude-* or gpt-5*; empty: every model."
        onChange={(models) => {
          update({ models });
        }}
      />
      <div className="grid three">
        <TextField
          label="Concurrent requests"
          inputMode="numeric"
          value={form.maxConcurrentRequests}
          error={shown.byPath['spec.maxConcurrentRequests']}
          hint="Per account; empty or 0: unlimited."
          onChange={(maxConcurrentRequests) => {
            update({ maxConcurrentRequests });
          }}
        />
        <TextField
          label="Price (USD)"
          inputMode="decimal"
          value={form.priceUSD}
          error={shown.byPath['spec.priceUSD']}
          hint="Of one period; shown, not charged."
          onChange={(priceUSD) => {
            update({ priceUSD });
          }}
        />
        <TextField
          label="Period (days)"
          inputMode="numeric"
          value={form.periodDays}
          error={shown.byPath['spec.periodDays']}
          onChange={(periodDays) => {
            update({ periodDays });
          }}
        />
      </div>
      <FormActions
        editing={editing}
        pending={save.isPending}
        cancelHref="/plans"
        rest={shown.rest}
      />
    </form>
  );
}
