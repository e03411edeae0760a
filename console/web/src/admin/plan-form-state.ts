/**
 * The Plan form (pure): display name, the four money limits, model globs, concurrency, price and
 * period, checked before sending with the CRD's own rules (crds/schema/plan.ts and
 * common-fields.ts; plan-form-state.test.ts holds the patterns equal to the CRD's).
 */
import { compact, integerValue, linesOf, listOf, recordOf, textOf } from './spec-values.js';
import type { FormProblem } from './spec-values.js';

/** The CRD's money: up to 999999 with up to 6 decimals. */
export const MONEY_PATTERN = '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,6})?$';
/** The CRD's model glob. */
export const MODEL_GLOB_PATTERN = '^[A-Za-z0-9._:/@*?\\[\\]-]+$';
/** The CRD's object name (RFC 1123 subdomain). */
export const PLAN_NAME_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

export const PLAN_LIMITS = ['fiveHourUSD', 'dailyUSD', 'weeklyUSD', 'monthlyUSD'] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

export const PLAN_LIMIT_LABELS: Record<PlanLimit, string> = {
  fiveHourUSD: '5-hour cap (USD)',
  dailyUSD: 'Daily cap (USD)',
  weeklyUSD: 'Weekly cap (USD)',
  monthlyUSD: 'Monthly cap (USD)',
};

export interface PlanForm {
  name: string;
  displayName: string;
  limits: Record<PlanLimit, string>;
  /** One glob per line; empty: every model. */
  models: string;
  maxConcurrentRequests: string;
  priceUSD: string;
  periodDays: string;
}

export function planFormFrom(name: string, spec: Record<string, unknown> | undefined): PlanForm {
  const limits = recordOf(spec?.limits);
  return {
    name,
    displayName: textOf(spec?.displayName),
    limits: {
      fiveHourUSD: textOf(limits.fiveHourUSD),
      dailyUSD: textOf(limits.dailyUSD),
      weeklyUSD: textOf(limits.weeklyUSD),
      monthlyUSD: textOf(limits.monthlyUSD),
    },
    models: listOf(recordOf(spec?.models).allow).map(textOf).join('\n'),
    maxConcurrentRequests: textOf(spec?.maxConcurrentRequests),
    priceUSD: textOf(spec?.priceUSD),
    periodDays: textOf(spec?.periodDays),
  };
}

/** Pure: the problem with a money text ('' is fine: absent), or null. */
export function moneyProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || new RegExp(MONEY_PATTERN).test(trimmed)) return null;
  return 'Enter an amount in USD such as 25 or 7.50 (at most 999999, up to 6 decimals).';
}

function integerProblem(text: string, range: { min: number; max: number }): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!/^[0-9]+$/.test(trimmed) || value < range.min || value > range.max) {
    return `Enter a whole number from ${range.min} to ${range.max}.`;
  }
  return null;
}

/** Pure: the first problem of the form (the CRD's rules), or null when it may be sent. */
export function planFormProblem(form: PlanForm): FormProblem | null {
  if (!new RegExp(PLAN_NAME_PATTERN).test(form.name.trim()) || form.name.trim().length > 253) {
    return {
      field: 'name',
      message: 'Enter a name of lower-case letters, digits, "-" and "." (such as pro-monthly).',
    };
  }
  if (form.displayName.trim().length > 200) {
    return { field: 'spec.displayName', message: 'At most 200 characters.' };
  }
  for (const limit of PLAN_LIMITS) {
    const message = moneyProblem(form.limits[limit]);
    if (message !== null) return { field: `spec.limits.${limit}`, message };
  }
  const globs = linesOf(form.models);
  const badGlob = globs.find(
    (glob) => glob.length > 200 || !new RegExp(MODEL_GLOB_PATTERN).test(glob),
  );
  if (badGlob !== undefined) {
    return {
      field: 'spec.models.allow',
      message: `"${badGlob}" is not a model glob (letters, digits, . _ : / @ - and * ? [ ]).`,
    };
  }
  if (globs.length > 200) return { field: 'spec.models.allow', message: 'At most 200 globs.' };
  const checks: [string, string | null][] = [
    [
      'spec.maxConcurrentRequests',
      integerProblem(form.maxConcurrentRequests, { min: 0, max: 1_000_000 }),
    ],
    ['spec.priceUSD', moneyProblem(form.priceUSD)],
    ['spec.periodDays', integerProblem(form.periodDays, { min: 1, max: 3660 })],
  ];
  const found = checks.find(([, message]) => message !== null);
  return found === undefined ? null : { field: found[0], message: found[1] ?? '' };
}

/** Pure: the spec to write (money as typed, a string; empty fields absent). */
export function planSpecFrom(form: PlanForm): Record<string, unknown> {
  const money = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const globs = [...new Set(linesOf(form.models))];
  return (
    compact({
      displayName: form.displayName.trim() === '' ? undefined : form.displayName.trim(),
      limits: compact(
        Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, money(form.limits[limit])])),
        { emptyIsAbsent: true },
      ),
      models: globs.length === 0 ? undefined : { allow: globs },
      maxConcurrentRequests: integerValue(form.maxConcurrentRequests),
      priceUSD: money(form.priceUSD),
      periodDays: integerValue(form.periodDays),
    }) ?? {}
  );
}
