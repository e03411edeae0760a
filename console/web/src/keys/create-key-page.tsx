/**
 * Create a key with every field: name, group (its platform and multiplier), an optional own value,
 * quota and window caps, IP allow and deny lists, expiry (date-time or validity), enabled. Fields
 * are checked as they are typed; server refusals are shown next to the field that caused them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import { ApiError, consoleApi, type CreateKeyBody, type Me } from '../api/console-api.js';
import { ErrorNote } from '../shell/error-note.js';
import { AccountPicker } from './account-picker.js';
import { CreatedKeyValue } from './created-key-value.js';
import { TextField } from './text-field.js';
import {
  createKeyBody,
  emptyKeyForm,
  formFieldOf,
  validateKeyForm,
  type KeyForm,
} from './validate-key-form.js';

const PERIODS = ['7', '30', '90'];
const MONEY_FIELDS = [
  { field: 'quotaUSD', label: 'Quota (USD)' },
  { field: 'fiveHourUSD', label: '5-hour cap (USD)' },
  { field: 'dailyUSD', label: 'Daily cap (USD)' },
  { field: 'sevenDayUSD', label: '7-day cap (USD)' },
] as const;

function GroupField(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const groups = useQuery({ queryKey: ['groups'], queryFn: consoleApi.groups, retry: false });
  const chosen = groups.data?.find((group) => group.name === props.value);
  const error =
    props.error === undefined ? undefined : <span className="field-error">{props.error}</span>;
  if (groups.isPending) {
    return (
      <label className="field">
        Group
        <select disabled value="">
          <option value="">Loading groups…</option>
        </select>
      </label>
    );
  }
  if (groups.data === undefined) {
    // Reading Groups needs the admin role: others type the group's name.
    return (
      <TextField
        label="Group"
        value={props.value}
        onChange={props.onChange}
        error={props.error}
        required
        hint="The group's name, as your administrator gave it."
      />
    );
  }
  return (
    <div className="field">
      <label>
        Group
        <select
          value={props.value}
          required
          aria-invalid={props.error !== undefined}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        >
          <option value="">Choose a group…</option>
          {groups.data.map((group) => (
            <option key={group.name} value={group.name}>
              {group.name}
              {group.platform === null ? '' : ` (${group.platform})`}
            </option>
          ))}
        </select>
      </label>
      {chosen !== undefined && (
        <span className="hint">
          Platform {chosen.platform ?? 'unknown'} · price multiplier ×{chosen.rateMultiplier ?? 1}
        </span>
      )}
      {error}
    </div>
  );
}

export function CreateKeyPage(props: { namespace: string; me: Me }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<KeyForm>(() => emptyKeyForm(props.namespace));
  const [touched, setTouched] = useState<Partial<Record<keyof KeyForm, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validateKeyForm(form, Date.now()), [form]);
  const create = useMutation({
    mutationFn: (body: CreateKeyBody) =>
      consoleApi.createKey({ namespace: form.account, body, csrfToken: props.me.csrfToken }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['keys', form.account] }),
  });
  const set =
    <F extends keyof KeyForm>(field: F) =>
    (value: KeyForm[F]) => {
      setForm((current) => ({ ...current, [field]: value }));
      setTouched((current) => ({ ...current, [field]: true }));
    };
  const serverError = create.error instanceof ApiError ? create.error : undefined;
  // A taken name is refused as a conflict without a field: it belongs next to the name.
  const serverField = serverError?.code === 'CONFLICT' ? 'name' : formFieldOf(serverError?.field);
  const serverMessage =
    serverError?.code === 'CONFLICT'
      ? `A key named "${create.variables?.name ?? ''}" already exists in this account: choose another name.`
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
        <TextField
          label="Name"
          value={form.name}
          onChange={set('name')}
          error={shown('name')}
          required
          hint="Lowercase letters, digits and -, such as ci-runner."
        />
        <GroupField value={form.groupName} onChange={set('groupName')} error={shown('groupName')} />
        <TextField
          label="Key value"
          value={form.value}
          onChange={set('value')}
          error={shown('value')}
          hint="Optional: your own value, at least 16 letters, digits, _ or -. Empty: one is generated."
        />
        <fieldset>
          <legend>Limits (empty or 0: unlimited)</legend>
          <div className="grid">
            {MONEY_FIELDS.map(({ field, label }) => (
              <TextField
                key={field}
                label={label}
                value={form[field]}
                onChange={set(field)}
                error={shown(field)}
                inputMode="decimal"
                placeholder="unlimited"
              />
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Client addresses (one IP or CIDR per line)</legend>
          <div className="grid">
            <TextField
              label="Allowed addresses"
              multiline
              value={form.allow}
              onChange={set('allow')}
              error={shown('allow')}
              placeholder="10.0.0.0/8"
              hint="Empty: every address."
            />
            <TextField
              label="Denied addresses"
              multiline
              value={form.deny}
              onChange={set('deny')}
              error={shown('deny')}
              placeholder="203.0.113.7"
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Expiry</legend>
          <div className="choices" role="radiogroup" aria-label="Expiry">
            {(
              [
                ['never', 'Never expires'],
                ['period', 'Valid for a period'],
                ['date', 'Expires at a date'],
              ] as const
            ).map(([mode, label]) => (
              <label key={mode} className="choice">
                <input
                  type="radio"
                  name="expiry"
                  checked={form.expiryMode === mode}
                  onChange={() => {
                    set('expiryMode')(mode);
                  }}
                />
                {label}
              </label>
            ))}
          </div>
          {form.expiryMode === 'period' && (
            <div className="period">
              <TextField
                label="Valid for (days)"
                value={form.validDays}
                onChange={set('validDays')}
                error={shown('validDays')}
                inputMode="numeric"
              />
              <div className="presets" aria-label="Common periods">
                {PERIODS.map((days) => (
                  <button
                    key={days}
                    type="button"
                    className="quiet"
                    aria-pressed={form.validDays === days}
                    onClick={() => {
                      set('validDays')(days);
                    }}
                  >
                    {days} days
                  </button>
                ))}
              </div>
            </div>
          )}
          {form.expiryMode === 'date' && (
            <TextField
              label="Expires at"
              type="datetime-local"
              value={form.expiresAt}
              onChange={set('expiresAt')}
              error={shown('expiresAt')}
            />
          )}
        </fieldset>
        <label className="choice">
          <input
            type="checkbox"
            checked={form.enabled}
            onChange={(event) => {
              set('enabled')(event.target.checked);
            }}
          />
          Enabled
        </label>
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
