/**
 * Notifier (namespaced: a tenant's events) and ClusterNotifier (cluster-scoped: every namespace plus
 * the upstream events): where notifications go (a signed webhook or a Slack incoming webhook), the
 * Secret that holds the credential, and the events wanted (docs/notifications.md).
 */
import { API_GROUP, dateTime, money, objectName, statusBase } from './common-fields.js';
import type { Field } from './schema-builder.js';
import { boolean, enumOf, integer, list, object, string } from './schema-builder.js';

export const NOTIFIER_KEY_WINDOWS = ['FiveHour', 'Daily', 'SevenDay', 'Quota'] as const;
export const NOTIFICATION_EVENT_TYPES = [
  'KeyWindowThreshold',
  'MemberWindowThreshold',
  'PlanWindowThreshold',
  'BalanceBelow',
  'KeyExpiring',
  'SubscriptionExpiring',
  'UpstreamCredentialsInvalid',
  'UpstreamCircuitOpen',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];
export const DELIVERY_STATES = ['Pending', 'Delivered', 'Failed'] as const;
/** The delivery history kept on the status: the newest deliveries, at most this many. */
export const DELIVERY_HISTORY_SIZE = 20;

const secretKeyRef = (description: string) =>
  object(
    {
      name: objectName(description),
      key: string({ maxLength: 253, minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' }),
    },
    { required: ['name', 'key'], description },
  );

const thresholds = list(integer({ minimum: 1, maximum: 1000 }), {
  description:
    'Percentages of the cap that fire an event once per window period; absent = [80, 100].',
  maxItems: 10,
  listType: 'set',
});

const withinDays = integer({
  description: 'Fire when the expiry is at most this many days away.',
  minimum: 1,
  maximum: 365,
});

const tenantEvents = {
  keyWindows: object({
    thresholds,
    windows: list(enumOf(NOTIFIER_KEY_WINDOWS), {
      description: 'The key windows watched (the quota counts as one); absent = all four.',
      maxItems: 4,
      listType: 'set',
    }),
    keyNames: list(objectName('An ApiKey name.'), {
      description: 'Only these keys; absent = every key in scope.',
      maxItems: 100,
      listType: 'set',
    }),
  }),
  memberWindows: object({ thresholds }),
  planWindows: object({ thresholds }),
  balanceBelow: object(
    { thresholdUSD: money('Fire when the balance (credit - spent) drops below this.') },
    { required: ['thresholdUSD'] },
  ),
  keyExpiring: object({ withinDays }, { required: ['withinDays'] }),
  subscriptionExpiring: object({ withinDays }, { required: ['withinDays'] }),
};

const clusterEvents = {
  ...tenantEvents,
  upstreamCredentialsInvalid: object({
    enabled: boolean({
      description:
        'Fire when an Upstream refused its credentials (401/403) and has not succeeded since; present = on unless false.',
    }),
  }),
  upstreamCircuitOpen: object({
    enabled: boolean({
      description: "Fire each time an Upstream's circuit opens; present = on unless false.",
    }),
  }),
};

function notifierSpec<E extends Record<string, Field>>(secretNamespace: string, events: E) {
  return object(
    {
      webhook: object(
        {
          url: string({
            description: 'http(s) URL the events are POSTed to, as JSON; no credentials in it.',
            maxLength: 2048,
            pattern: '^https?://[^\\s]+$',
            rules: [
              {
                rule: "!self.matches('^[a-zA-Z][-+.a-zA-Z0-9]*://[^/?#]*@')",
                message:
                  'must not carry credentials (user:password@): the signing secret authenticates the events',
              },
            ],
          }),
          signingSecretRef: secretKeyRef(
            `Secret (${secretNamespace}) and key holding the HMAC-SHA256 signing secret.`,
          ),
        },
        { required: ['url', 'signingSecretRef'], description: 'A generic, signed webhook.' },
      ),
      slack: object(
        {
          webhookURLSecretRef: secretKeyRef(
            `Secret (${secretNamespace}) and key holding the incoming-webhook URL (the URL is the credential).`,
          ),
        },
        { required: ['webhookURLSecretRef'], description: 'A Slack-compatible incoming webhook.' },
      ),
      events: object(events, {
        description: 'The events wanted: at least one.',
        rules: [
          {
            rule: Object.keys(events)
              .map((name) => `has(self.${name})`)
              .join(' || '),
            message: `name at least one event (${Object.keys(events).join(', ')})`,
          },
        ],
      }),
      suspend: boolean({ description: 'A suspended notifier evaluates and sends nothing.' }),
    },
    {
      required: ['events'],
      rules: [
        {
          rule: 'has(self.webhook) != has(self.slack)',
          message: 'exactly one of webhook and slack must be set',
        },
      ],
    },
  );
}

const delivery = object(
  {
    id: string({ description: 'The event id (Tollgate-Event-Id).', maxLength: 64 }),
    type: enumOf(NOTIFICATION_EVENT_TYPES),
    subject: string({ description: 'What the event is about.', maxLength: 512 }),
    state: enumOf(DELIVERY_STATES),
    firstSeenTime: dateTime('When the event was first evaluated.'),
    attempts: integer({ minimum: 0, maximum: 1000 }),
    lastStatusCode: integer({ minimum: 0, maximum: 999 }),
    lastError: string({ maxLength: 1024 }),
    deliveredTime: dateTime('When the receiver accepted it.'),
  },
  { required: ['id', 'type', 'subject', 'state', 'firstSeenTime', 'attempts'] },
);

const notifierStatus = object({
  ...statusBase(),
  delivered: integer({ description: 'Events delivered.', minimum: 0, maximum: 2 ** 53 - 1 }),
  failed: integer({ description: 'Events given up on.', minimum: 0, maximum: 2 ** 53 - 1 }),
  deliveries: list(delivery, {
    description: `The newest deliveries, at most ${DELIVERY_HISTORY_SIZE}.`,
    maxItems: DELIVERY_HISTORY_SIZE,
    listType: 'atomic',
  }),
});

const printerColumns = [
  { name: 'Delivered', type: 'integer', jsonPath: '.status.delivered' },
  { name: 'Failed', type: 'integer', jsonPath: '.status.failed' },
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

export const notifierDefinition = {
  kind: 'Notifier',
  plural: 'notifiers',
  singular: 'notifier',
  shortNames: ['ntf'],
  scope: 'Namespaced',
  spec: notifierSpec('the same namespace', tenantEvents),
  status: notifierStatus,
  printerColumns,
  group: API_GROUP,
} as const;

export const clusterNotifierDefinition = {
  kind: 'ClusterNotifier',
  plural: 'clusternotifiers',
  singular: 'clusternotifier',
  shortNames: ['cntf'],
  scope: 'Cluster',
  spec: notifierSpec('the operator namespace', clusterEvents),
  status: notifierStatus,
  printerColumns,
  group: API_GROUP,
} as const;
