/** ApiKey: one key of a tenant; its value lives only in the Secret it names. */
import {
  API_GROUP,
  dateTime,
  ipRanges,
  modelGlobs,
  money,
  objectName,
  statusBase,
  withDefault,
} from './common-fields.js';
import { boolean, enumOf, integer, list, object, string } from './schema-builder.js';
import { captureSettings } from './capture-fields.js';

export const apiKeySpec = object({
  displayName: string({ description: 'A free label for people.', maxLength: 200 }),
  groupName: objectName(
    'The Group whose platform and prices the key uses; absent = every call refused.',
  ),
  secretName: objectName('Secret holding the key value; default <metadata.name>-key.'),
  secretKey: withDefault(
    string({ maxLength: 253, minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' }),
    'apiKey',
  ),
  suspend: withDefault(boolean({ description: 'A suspended key is refused.' }), false),
  expirationTime: dateTime('After this time the key stops working.'),
  limits: object({
    quotaUSD: money('Total spend until the next quota reset; absent or 0 = unlimited.'),
    fiveHourUSD: money('Spend per 5-hour window; absent or 0 = unlimited.'),
    dailyUSD: money('Spend per 24-hour window; absent or 0 = unlimited.'),
    sevenDayUSD: money('Spend per 7-day window; absent or 0 = unlimited.'),
  }),
  sourceRanges: object({
    allow: ipRanges('When set, only these addresses or CIDR ranges may use the key.'),
    deny: ipRanges('These addresses or CIDR ranges may never use the key.'),
  }),
  maxConcurrentRequests: integer({
    description: 'Requests in flight at once with this key; absent or 0 = unlimited.',
    minimum: 0,
    maximum: 1_000_000,
  }),
  models: object({
    allow: modelGlobs('Model globs this key may use; absent = all the group allows.'),
  }),
  capture: captureSettings(
    "Keep the bodies of this key's calls, redacted, in the ledger (docs/captures.md). Each field set here overrides the group's spec.capture field; absent fields take the group's.",
  ),
  owner: string({
    description:
      "The user the key belongs to (the console sets the signed-in user); the account's memberLimits count the spend of all keys with the same owner. Cannot be changed once set; only clearing it is allowed (the console lets only administrators clear it).",
    maxLength: 253,
    minLength: 1,
    rules: [{ rule: 'self == oldSelf', message: 'owner cannot be changed once set' }],
  }),
});

export const WINDOW_NAMES = ['FiveHour', 'Daily', 'SevenDay'] as const;

export const apiKeyStatus = object({
  ...statusBase(),
  keyHint: string({ description: 'Prefix and last 4 characters of the value.', maxLength: 32 }),
  lastHandledQuotaReset: string({ maxLength: 253 }),
  usage: object({
    usedUSD: string({ maxLength: 32 }),
    windows: list(
      object(
        {
          name: enumOf(WINDOW_NAMES),
          usedUSD: string({ maxLength: 32 }),
          resetTime: dateTime('When the window closes.'),
        },
        { required: ['name', 'usedUSD'] },
      ),
      { maxItems: 3, listType: 'map', mapKeys: ['name'] },
    ),
    lastUsedTime: dateTime('The last settled request.'),
    observedTime: dateTime('When these figures were read.'),
  }),
});

export const apiKeyDefinition = {
  kind: 'ApiKey',
  plural: 'apikeys',
  singular: 'apikey',
  shortNames: ['ak'],
  scope: 'Namespaced',
  spec: apiKeySpec,
  status: apiKeyStatus,
  printerColumns: [
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: 'Group', type: 'string', jsonPath: '.spec.groupName' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
    { name: 'Used', type: 'string', jsonPath: '.status.usage.usedUSD' },
    { name: 'Expires', type: 'string', jsonPath: '.spec.expirationTime', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
