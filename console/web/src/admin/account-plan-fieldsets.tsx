/**
 * The Account form's subscription (a Plan, from, until, the calendar windows' time zone) and its
 * member limits (the spend of all keys with the same owner, per calendar day, week and month).
 */
import { useQuery } from '@tanstack/react-query';
import { SelectField } from '../ui/select-field.js';
import { TextField } from '../ui/text-field.js';
import type { AccountForm, MemberLimit } from './account-form-state.js';
import { adminQueries } from './admin-queries.js';
import { textOf } from './spec-values.js';

interface Section {
  form: AccountForm;
  update: (change: Partial<AccountForm>) => void;
  error: (path: string) => string | undefined;
}

export const ACCOUNT_PLAN_PATHS = [
  'spec.subscription.planName',
  'spec.subscription.startTime',
  'spec.subscription.endTime',
  'spec.subscription',
  'spec.timeZone',
  'spec.memberLimits.dailyUSD',
  'spec.memberLimits.weeklyUSD',
  'spec.memberLimits.monthlyUSD',
] as const;

export function SubscriptionFieldset(props: Section & { mayListPlans: boolean }) {
  const { form, update, error } = props;
  const plans = useQuery({ ...adminQueries.list('plans'), enabled: props.mayListPlans });
  const names = (plans.data?.items ?? []).map((plan) => ({
    value: plan.name,
    label:
      textOf(plan.spec.displayName) === ''
        ? plan.name
        : `${textOf(plan.spec.displayName)} (${plan.name})`,
  }));
  // A plan named but not (or no longer) listed stays choosable, so an edit does not drop it.
  if (form.planName !== '' && !names.some((option) => option.value === form.planName)) {
    names.push({ value: form.planName, label: `${form.planName} (not found)` });
  }
  return (
    <fieldset>
      <legend>Subscription</legend>
      <p className="hint">
        While active, the plan's windows apply to the whole account on top of its credit. After the
        end, calls are refused unless the account has a balance left.
      </p>
      <SelectField
        label="Plan"
        value={form.planName}
        error={error('spec.subscription.planName') ?? error('spec.subscription')}
        options={[{ value: '', label: 'No plan' }, ...names]}
        onChange={(planName) => {
          update({ planName });
        }}
      />
      {form.planName !== '' && (
        <div className="grid two">
          <TextField
            label="Starts"
            type="datetime-local"
            value={form.startTime}
            error={error('spec.subscription.startTime')}
            hint="Your local time."
            onChange={(startTime) => {
              update({ startTime });
            }}
          />
          <TextField
            label="Ends"
            type="datetime-local"
            value={form.endTime}
            error={error('spec.subscription.endTime')}
            hint="Empty: no end."
            onChange={(endTime) => {
              update({ endTime });
            }}
          />
        </div>
      )}
      <TextField
        label="Time zone"
        value={form.timeZone}
        error={error('spec.timeZone')}
        hint="IANA name such as Europe/Berlin, of the daily, weekly and monthly windows; empty: the gateway's."
        onChange={(timeZone) => {
          update({ timeZone });
        }}
      />
    </fieldset>
  );
}

const MEMBER_LABELS: Record<MemberLimit, string> = {
  dailyUSD: 'Per day (USD)',
  weeklyUSD: 'Per week (USD)',
  monthlyUSD: 'Per month (USD)',
};

export function MemberLimitsFieldset(props: Section) {
  const { form, update, error } = props;
  return (
    <fieldset>
      <legend>Member limits</legend>
      <p className="hint">
        The spend of all keys with the same owner in this namespace. Empty: no limit.
      </p>
      <div className="grid three">
        {(Object.keys(MEMBER_LABELS) as MemberLimit[]).map((limit) => (
          <TextField
            key={limit}
            label={MEMBER_LABELS[limit]}
            inputMode="decimal"
            value={form.memberLimits[limit]}
            error={error(`spec.memberLimits.${limit}`)}
            onChange={(value) => {
              update({ memberLimits: { ...form.memberLimits, [limit]: value } });
            }}
          />
        ))}
      </div>
    </fieldset>
  );
}
