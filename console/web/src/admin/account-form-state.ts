/**
 * The Account form (pure): one Account per namespace (named `default`): display name, credit,
 * concurrency, the subscription to a Plan (from, until) and the member limits, checked before
 * sending with the CRD's rules.
 */
import { moneyProblem } from './plan-form-state.js';
import {
  compact,
  decimalValue,
  integerValue,
  recordOf,
  textOf,
  type FormProblem,
} from './spec-values.js';

export const MEMBER_LIMITS = ['dailyUSD', 'weeklyUSD', 'monthlyUSD'] as const;
export type MemberLimit = (typeof MEMBER_LIMITS)[number];

export interface AccountForm {
  namespace: string;
  displayName: string;
  /** Empty: no balance limit; 0: no credit. */
  creditUSD: string;
  /** Empty or 0: unlimited. */
  maxConcurrentRequests: string;
  /** Empty: no subscription. */
  planName: string;
  /** Local date and time as a `datetime-local` input holds it (`2026-11-28T09:00`). */
  startTime: string;
  /** Empty: no end. */
  endTime: string;
  /** IANA time zone of the calendar windows; empty: the gateway's. */
  timeZone: string;
  memberLimits: Record<MemberLimit, string>;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Pure: an RFC 3339 instant as the local `YYYY-MM-DDTHH:mm` of a datetime-local input. */
export function localInputOf(instant: unknown): string {
  const text = textOf(instant);
  const time = Date.parse(text);
  if (text === '' || Number.isNaN(time)) return '';
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Pure: a datetime-local input's text as an RFC 3339 instant (UTC), undefined when unreadable. */
export function instantOf(local: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local.trim())) return undefined;
  const time = new Date(local.trim()).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().replace('.000Z', 'Z');
}

export function accountFormFrom(
  namespace: string,
  spec: Record<string, unknown> | undefined,
): AccountForm {
  const subscription = recordOf(spec?.subscription);
  const members = recordOf(spec?.memberLimits);
  return {
    namespace,
    displayName: textOf(spec?.displayName),
    creditUSD: textOf(spec?.creditUSD),
    maxConcurrentRequests: textOf(spec?.maxConcurrentRequests),
    planName: textOf(subscription.planName),
    startTime: localInputOf(subscription.startTime),
    endTime: localInputOf(subscription.endTime),
    timeZone: textOf(spec?.timeZone),
    memberLimits: {
      dailyUSD: textOf(members.dailyUSD),
      weeklyUSD: textOf(members.weeklyUSD),
      monthlyUSD: textOf(members.monthlyUSD),
    },
  };
}

/** Pure: the first problem of the subscription, time zone and member limits, or null. */
export function accountFormProblem(form: AccountForm): FormProblem | null {
  if (form.planName !== '') {
    const start = instantOf(form.startTime);
    if (start === undefined) {
      return { field: 'spec.subscription.startTime', message: 'Enter when the plan starts.' };
    }
    if (form.endTime.trim() !== '') {
      const end = instantOf(form.endTime);
      if (end === undefined || Date.parse(end) <= Date.parse(start)) {
        return {
          field: 'spec.subscription.endTime',
          message: 'Enter an end after the start, or leave it empty for no end.',
        };
      }
    }
  }
  if (
    form.timeZone.trim() !== '' &&
    !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(form.timeZone.trim())
  ) {
    return { field: 'spec.timeZone', message: 'Enter an IANA time zone such as Europe/Berlin.' };
  }
  for (const limit of MEMBER_LIMITS) {
    const message = moneyProblem(form.memberLimits[limit]);
    if (message !== null) return { field: `spec.memberLimits.${limit}`, message };
  }
  return null;
}

export function accountSpecFrom(form: AccountForm): Record<string, unknown> {
  const credit = decimalValue(form.creditUSD);
  const money = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const subscription =
    form.planName === ''
      ? undefined
      : compact({
          planName: form.planName,
          startTime: instantOf(form.startTime),
          endTime: form.endTime.trim() === '' ? undefined : instantOf(form.endTime),
        });
  return (
    compact({
      displayName: form.displayName.trim() === '' ? undefined : form.displayName.trim(),
      // Money is sent as typed (a string): "0.50" keeps its decimals.
      creditUSD: credit === undefined ? undefined : form.creditUSD.trim(),
      maxConcurrentRequests: integerValue(form.maxConcurrentRequests),
      subscription,
      timeZone: form.timeZone.trim() === '' ? undefined : form.timeZone.trim(),
      memberLimits: compact(
        Object.fromEntries(MEMBER_LIMITS.map((limit) => [limit, money(form.memberLimits[limit])])),
        { emptyIsAbsent: true },
      ),
    }) ?? {}
  );
}
