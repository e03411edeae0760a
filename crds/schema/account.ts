/** Account: the tenant's credit and concurrency, one per namespace, named `default`. */
import { API_GROUP, money, statusBase } from './common-fields.js';
import { integer, object, string } from './schema-builder.js';

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
});

export const accountStatus = object({
  ...statusBase(),
  spentUSD: string({ maxLength: 32 }),
  balanceUSD: string({ maxLength: 32 }),
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
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
