/**
 * The key form's fields shared by create and edit: the name, limits, client addresses, expiry,
 * enabled.
 */
import type { KeyForm } from './validate-key-form.js';
import { TextField } from '../ui/text-field.js';

const PERIODS = ['7', '30', '90'];
const MONEY_FIELDS = [
  { field: 'quotaUSD', label: 'Quota (USD)' },
  { field: 'fiveHourUSD', label: '5-hour cap (USD)' },
  { field: 'dailyUSD', label: 'Daily cap (USD)' },
  { field: 'sevenDayUSD', label: '7-day cap (USD)' },
] as const;

/** The key's name: a free label, with the object name it has (or will have) in small print. */
export function KeyNameField(props: {
  form: KeyForm;
  set: (field: 'name') => (value: string) => void;
  error: string | undefined;
  objectName: string;
}) {
  return (
    <TextField
      label="Name"
      value={props.form.name}
      onChange={props.set('name')}
      error={props.error}
      required
      hint={`Any text, up to 200 characters. Object name: ${props.objectName}`}
    />
  );
}

export function KeyFormFields(props: {
  form: KeyForm;
  set: <F extends keyof KeyForm>(field: F) => (value: KeyForm[F]) => void;
  shown: (field: keyof KeyForm) => string | undefined;
}) {
  const { form, set, shown } = props;
  return (
    <>
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
    </>
  );
}
