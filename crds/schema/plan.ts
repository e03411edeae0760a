/**
 * Plan: a subscription's windows, models and concurrency (cluster-scoped). An Account subscribes
 * with `spec.subscription.planName`; the plan's windows then apply to the whole account.
 */
import { API_GROUP, dateTime, modelGlobs, money, statusBase } from './common-fields.js';
import { enumOf, integer, list, object, string } from './schema-builder.js';

export const PLAN_WINDOW_NAMES = ['FiveHour', 'Daily', 'Weekly', 'Monthly'] as const;
export type PlanWindowName = (typeof PLAN_WINDOW_NAMES)[number];

export const planSpec = object({
  displayName: string({ description: 'The plan name people see.', maxLength: 200 }),
  limits: object({
    fiveHourUSD: money('Spend per rolling 5-hour window (as on keys); absent = no cap.'),
    dailyUSD: money("Spend per calendar day in the account's time zone; absent = no cap."),
    weeklyUSD: money(
      "Spend per calendar week (Monday to Sunday) in the account's time zone; absent = no cap.",
    ),
    monthlyUSD: money("Spend per calendar month in the account's time zone; absent = no cap."),
  }),
  models: object({
    allow: modelGlobs('Model globs the subscribed accounts may use; absent = all.'),
  }),
  maxConcurrentRequests: integer({
    description:
      "Requests in flight at once for a subscribed account; absent or 0 = unlimited (the lower of this and the Account's own limit applies).",
    minimum: 0,
    maximum: 1_000_000,
  }),
  priceUSD: money('The price of one period (informational, shown by the console).'),
  periodDays: integer({
    description: 'The length of one period in days (informational, shown by the console).',
    minimum: 1,
    maximum: 3660,
  }),
});

export const planStatus = object({
  ...statusBase(),
  subscribedAccounts: integer({
    description: 'Accounts whose subscription names this plan.',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
  }),
});

/** One plan window on the Account's status: spend, cap and when it resets. */
export const planWindowStatus = object(
  {
    name: enumOf(PLAN_WINDOW_NAMES),
    usedUSD: string({ maxLength: 32 }),
    capUSD: string({ maxLength: 32 }),
    resetTime: dateTime('When the window closes; absent while nothing was spent in it.'),
  },
  { required: ['name', 'usedUSD', 'capUSD'] },
);

export const planWindowStatusList = list(planWindowStatus, {
  maxItems: 4,
  listType: 'map',
  mapKeys: ['name'],
});

export const planDefinition = {
  kind: 'Plan',
  plural: 'plans',
  singular: 'plan',
  shortNames: ['plan'],
  scope: 'Cluster',
  spec: planSpec,
  status: planStatus,
  printerColumns: [
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: '5h', type: 'string', jsonPath: '.spec.limits.fiveHourUSD' },
    { name: 'Daily', type: 'string', jsonPath: '.spec.limits.dailyUSD' },
    { name: 'Weekly', type: 'string', jsonPath: '.spec.limits.weeklyUSD' },
    { name: 'Monthly', type: 'string', jsonPath: '.spec.limits.monthlyUSD' },
    { name: 'Price', type: 'string', jsonPath: '.spec.priceUSD', priority: 1 },
    { name: 'Accounts', type: 'integer', jsonPath: '.status.subscribedAccounts' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
