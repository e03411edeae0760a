/**
 * Create or edit a Group: name, platform (fixed once created), description, price multiplier,
 * upstreams (weight, priority), which namespaces may use it, allowed models, fallback prices and
 * per-model price overrides. Refusals are shown next to the field they name; the input stays.
 */
import { useQuery } from '@tanstack/react-query';
import type { SyntheticEvent } from 'react';
import { type AdminObject } from '../api/admin-api.js';
import { TextField } from '../ui/text-field.js';
import {
  AdminFormLoader,
  FormActions,
  NameField,
  namePlatformProblem,
  PlatformField,
} from './admin-form-parts.js';
import { PATHS, type GroupPath } from './group-form-paths.js';
import { groupFormFrom, groupSpecFrom, type GroupForm } from './group-form-state.js';
import { GroupNamespacesFieldset } from './group-namespaces-fieldset.js';
import { GroupPricingFields } from './group-pricing-fields.js';
import { GroupSessionFieldset } from './group-session-fieldset.js';
import { GroupUpstreamRefs } from './group-upstream-refs.js';
import { useAdminForm } from './use-admin-form.js';
import { adminQueries } from './admin-queries.js';

export function GroupFormPage(props: { name?: string }) {
  return (
    <AdminFormLoader
      kind="groups"
      wanted={props.name !== undefined}
      find={(item) => item.name === props.name}
      missing={`There is no Group named ${props.name ?? ''}.`}
      render={(current) => <GroupFormBody current={current} />}
    />
  );
}

function GroupFormBody(props: { current: AdminObject | undefined }) {
  const { editing, form, update, setProblem, shown, save, send } = useAdminForm<GroupForm>({
    kind: 'groups',
    current: props.current,
    initial: () => groupFormFrom(props.current?.name ?? '', props.current?.spec),
    paths: PATHS,
  });
  const upstreams = useQuery(adminQueries.list('upstreams'));
  const error = (path: GroupPath) => shown.byPath[path];
  const sections = { form, update, error };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const missing = namePlatformProblem(form);
    if (missing !== null) {
      setProblem(missing);
      return;
    }
    const built = groupSpecFrom(form);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    send(form.name.trim(), { spec: built.spec });
  };
  const upstreamNames = (upstreams.data?.items ?? [])
    .filter((item) => form.platform === '' || item.spec.platform === form.platform)
    .map((item) => item.name);
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="admin-form-title">
      <h2 id="admin-form-title">{editing ? `Edit group ${form.name}` : 'Create group'}</h2>
      <div className="grid two">
        <NameField
          editing={editing}
          label="Name"
          value={form.name}
          error={error('name')}
          hint="Lower-case letters, digits, '-' and '.'; keys name it."
          onChange={(name) => {
            update({ name });
          }}
        />
        <PlatformField
          editing={editing}
          noun="group"
          value={form.platform}
          error={error('spec.platform')}
          hint="The protocol its keys speak."
          onChange={(platform) => {
            update({ platform });
          }}
        />
      </div>
      <TextField
        label="Description"
        multiline
        value={form.description}
        error={error('spec.description')}
        onChange={(description) => {
          update({ description });
        }}
      />
      <TextField
        label="Price multiplier"
        inputMode="decimal"
        value={form.rateMultiplier}
        error={error('spec.rateMultiplier')}
        hint="Cost = list price × this; greater than 0 (1 = list price)."
        onChange={(rateMultiplier) => {
          update({ rateMultiplier });
        }}
      />
      <GroupUpstreamRefs {...sections} upstreamNames={upstreamNames} />
      <GroupNamespacesFieldset {...sections} />
      <TextField
        label="Allowed models"
        multiline
        value={form.modelsAllow}
        hint="One model name or glob per line (claude-*); empty: every model."
        error={error('spec.models')}
        onChange={(modelsAllow) => {
          update({ modelsAllow });
        }}
      />
      <GroupSessionFieldset {...sections} />
      <GroupPricingFields {...sections} />
      <FormActions
        editing={editing}
        pending={save.isPending}
        cancelHref="/groups"
        rest={shown.rest}
      />
    </form>
  );
}
