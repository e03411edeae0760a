/**
 * Create or edit a Group: name, platform (fixed once created), description, price multiplier,
 * upstreams (weight, priority), which namespaces may use it, allowed models, fallback prices and
 * per-model price overrides. Refusals are shown next to the field they name; the input stays.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, type SyntheticEvent } from 'react';
import { type AdminObject } from '../api/admin-api.js';
import { SelectField } from '../ui/select-field.js';
import { TextField } from '../ui/text-field.js';
import {
  AdminFormLoader,
  FormActions,
  NameField,
  namePlatformProblem,
  PlatformField,
} from './admin-form-parts.js';
import {
  emptyPrices,
  groupFormFrom,
  groupSpecFrom,
  PRICE_FIELDS,
  type GroupForm,
  type Prices,
} from './group-form-state.js';
import { RowList } from '../ui/row-list.js';
import { useAdminForm } from './use-admin-form.js';
import { adminQueries } from './admin-queries.js';

const PATHS = [
  'name',
  'spec.platform',
  'spec.description',
  'spec.rateMultiplier',
  'spec.upstreamRefs',
  'spec.allowedNamespaces',
  'spec.allowedNamespaces.selector.matchLabels',
  'spec.allowedNamespaces.selector.matchExpressions',
  'spec.models',
  'spec.pricing.fallback',
  'spec.pricing.overrides',
  'spec.sessionAffinity',
  'spec.sessionAffinity.ttlSeconds',
] as const;

function PriceFields(props: {
  prices: Prices;
  onChange: (change: Partial<Prices>) => void;
  suffix?: string;
}) {
  return (
    <>
      {PRICE_FIELDS.map((field) => (
        <TextField
          key={field.key}
          label={`${field.label} (USD / M tokens)${props.suffix ?? ''}`}
          inputMode="decimal"
          value={props.prices[field.key]}
          onChange={(value) => {
            props.onChange({ [field.key]: value });
          }}
        />
      ))}
    </>
  );
}

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
  const upstreams = useQuery({
    ...adminQueries.list('upstreams'),
  });
  const error = (path: (typeof PATHS)[number]) => shown.byPath[path];
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
      <datalist id="group-upstream-names">
        {upstreamNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <RowList
        legend="Upstreams"
        itemLabel="Upstream"
        addLabel="Add upstream"
        hint="Lower priority is tried first; among equals, traffic is shared by weight."
        rows={form.upstreamRefs}
        error={error('spec.upstreamRefs')}
        newRow={() => ({ name: upstreamNames[0] ?? '', weight: '1', priority: '0' })}
        onChange={(upstreamRefs) => {
          update({ upstreamRefs });
        }}
        render={(row, change) => (
          <>
            <UpstreamNameField
              value={row.name}
              onChange={(name) => {
                change({ name });
              }}
            />
            <TextField
              label="Weight"
              inputMode="numeric"
              value={row.weight}
              onChange={(weight) => {
                change({ weight });
              }}
            />
            <TextField
              label="Priority"
              inputMode="numeric"
              value={row.priority}
              onChange={(priority) => {
                change({ priority });
              }}
            />
          </>
        )}
      />
      <fieldset>
        <legend>Namespaces</legend>
        <div className="choices">
          <label className="choice">
            <input
              type="radio"
              name="namespaces"
              checked={form.namespaces === 'All'}
              onChange={() => {
                update({ namespaces: 'All' });
              }}
            />
            Every namespace
          </label>
          <label className="choice">
            <input
              type="radio"
              name="namespaces"
              checked={form.namespaces === 'Selector'}
              onChange={() => {
                update({ namespaces: 'Selector' });
              }}
            />
            Namespaces with labels
          </label>
        </div>
        {form.namespaces === 'Selector' && (
          <div className="grid two">
            <TextField
              label="Namespace labels"
              multiline
              value={form.matchLabels}
              hint="One key=value per line; all must match."
              error={error('spec.allowedNamespaces.selector.matchLabels')}
              onChange={(matchLabels) => {
                update({ matchLabels });
              }}
            />
            <TextField
              label="Namespace expressions"
              multiline
              value={form.matchExpressions}
              hint='One per line: "key In a, b", "key NotIn a, b", "key Exists", "key DoesNotExist".'
              error={error('spec.allowedNamespaces.selector.matchExpressions')}
              onChange={(matchExpressions) => {
                update({ matchExpressions });
              }}
            />
          </div>
        )}
        {error('spec.allowedNamespaces') !== undefined && (
          <p className="field-error" role="alert">
            {error('spec.allowedNamespaces')}
          </p>
        )}
      </fieldset>
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
      <fieldset>
        <legend>Sticky sessions</legend>
        <SelectField
          label="Session affinity"
          value={form.sessionMode}
          options={[
            { value: 'ClientSession', label: 'Keep a conversation on its upstream' },
            { value: 'None', label: 'Schedule every call afresh' },
          ]}
          hint="Calls of one conversation go to the upstream that served it while it is available, so its prompt cache is reused."
          error={error('spec.sessionAffinity')}
          onChange={(sessionMode) => {
            update({ sessionMode: sessionMode === 'None' ? 'None' : 'ClientSession' });
          }}
        />
        {form.sessionMode === 'ClientSession' && (
          <TextField
            label="Session lifetime (seconds)"
            inputMode="numeric"
            value={form.sessionTtlSeconds}
            hint="How long a conversation stays bound after its last call, 60 to 604800; empty: 3600."
            error={error('spec.sessionAffinity.ttlSeconds')}
            onChange={(sessionTtlSeconds) => {
              update({ sessionTtlSeconds });
            }}
          />
        )}
      </fieldset>
      <fieldset>
        <legend>Fallback price</legend>
        <p className="hint">
          For models missing from the price table; empty: such models are refused. Input and output
          are required when any is set.
        </p>
        <div className="grid">
          <PriceFields
            prices={form.fallback}
            onChange={(change) => {
              update({ fallback: { ...form.fallback, ...change } });
            }}
          />
        </div>
        {error('spec.pricing.fallback') !== undefined && (
          <p className="field-error" role="alert">
            {error('spec.pricing.fallback')}
          </p>
        )}
      </fieldset>
      <RowList
        legend="Price overrides"
        itemLabel="Override"
        addLabel="Add price override"
        hint="A model's own price for this group (input and output required)."
        rows={form.overrides}
        error={error('spec.pricing.overrides')}
        newRow={() => ({ model: '', ...emptyPrices() })}
        onChange={(overrides) => {
          update({ overrides });
        }}
        render={(row, change) => (
          <>
            <TextField
              label="Model"
              value={row.model}
              onChange={(model) => {
                change({ model });
              }}
            />
            <PriceFields prices={row} onChange={change} />
          </>
        )}
      />
      <FormActions
        editing={editing}
        pending={save.isPending}
        cancelHref="/groups"
        rest={shown.rest}
      />
    </form>
  );
}

function UpstreamNameField(props: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Upstream name</label>
      <input
        id={id}
        list="group-upstream-names"
        value={props.value}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      />
    </div>
  );
}
