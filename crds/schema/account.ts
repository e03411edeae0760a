/** Account: the tenant's credit and concurrency, one per namespace, named `default`. */
import { API_GROUP, dateTime, money, objectName, statusBase } from './common-fields.js';
import { planWindowStatusList } from './plan.js';
import { enumOf, integer, object, string } from './schema-builder.js';

export const accountSpec = object({
  displayName: string({ maxLength: 200 }),
  creditUSD: money(
    'Total credited. Balance = credit - spent. Absent = no balance limit; 0 = no credit.',
  ),
  maxConcurrentRequests: integer({
    description:
      'Requests in flight at once for all keys of the namespace; absent or 0 = unlimited.',
    minimum: 0,
    maximum: 1_000_000,
  }),
  subscription: object(
    {
      planName: objectName('The Plan whose windows, models and concurrency apply.'),
      startTime: dateTime('The subscription admits calls from this time on.'),
      endTime: dateTime(
        'After this time the subscription admits no calls (TG_SUBSCRIPTION_EXPIRED) unless the account has a balance left; absent = no end.',
      ),
    },
    {
      required: ['planName', 'startTime'],
      rules: [
        {
          rule: '!has(self.endTime) || timestamp(self.endTime) > timestamp(self.startTime)',
          message: 'endTime must be after startTime',
        },
      ],
    },
  ),
  timeZone: string({
    description:
      "IANA time zone of the plan's and member budgets' calendar windows (days, weeks from Monday, months); absent = the gateway's --time-zone.",
    maxLength: 64,
    pattern: '^[A-Za-z][A-Za-z0-9_+\\-]*(/[A-Za-z0-9_+\\-]+)*$',
  }),
  memberLimits: object({
    dailyUSD: money(
      'Spend per calendar day of all keys with the same spec.owner in this namespace; absent = no cap.',
    ),
    weeklyUSD: money('Spend per calendar week (from Monday) per owner; absent = no cap.'),
    monthlyUSD: money('Spend per calendar month per owner; absent = no cap.'),
  }),
});

export const accountStatus = object({
  ...statusBase(),
  spentUSD: string({ maxLength: 32 }),
  balanceUSD: string({ maxLength: 32 }),
  subscription: object({
    planName: string({ maxLength: 253 }),
    state: enumOf(['Active', 'Pending', 'Expired', 'PlanNotFound'], {
      description:
        'Active between startTime and endTime; Pending before startTime; Expired after endTime; PlanNotFound while the Plan does not exist.',
    }),
    windows: planWindowStatusList,
  }),
});

export const accountDefinition = {
  kind: 'Account',
  plural: 'accounts',
  singular: 'account',
  shortNames: ['acct'],
  scope: 'Namespaced',
  spec: accountSpec,
  status: accountStatus,
  /** One per namespace: the schema restricts `metadata.name`, so a refusal names the wrong name. */
  allowedNames: ['default'],
  printerColumns: [
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: 'Credit', type: 'string', jsonPath: '.spec.creditUSD' },
    { name: 'Spent', type: 'string', jsonPath: '.status.spentUSD' },
    { name: 'Balance', type: 'string', jsonPath: '.status.balanceUSD' },
    { name: 'Plan', type: 'string', jsonPath: '.spec.subscription.planName' },
    { name: 'Subscription', type: 'string', jsonPath: '.status.subscription.state' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
