/** Upstream: one upstream credential (cluster-scoped, admin-owned). */
import { API_GROUP, dateTime, platform, statusBase } from './common-fields.js';
import { prices } from './group.js';
import { enumOf, integer, list, object, string } from './schema-builder.js';
import { credentials } from './upstream-credentials.js';
import { providerFields, providerRules } from './upstream-providers.js';

export const upstreamSpec = object(
  {
    platform: platform('The protocol the upstream speaks. Immutable.'),
    ...providerFields,
    baseURL: string({
      description:
        'provider Direct: origin and optional path prefix, for example https://api.anthropic.com.',
      maxLength: 2048,
      pattern: '^https?://[^\\s]+$',
    }),
    credentials,
    maxConcurrentRequests: integer({
      description: 'Requests in flight at once through this upstream; absent or 0 = unlimited.',
      minimum: 0,
      maximum: 1_000_000,
    }),
    requestsPerMinute: integer({
      description:
        'Requests started per minute through this upstream, counted across every gateway replica; an upstream at its limit is skipped (the next upstream of the group is tried), never waited on. Absent or 0 = unlimited.',
      minimum: 0,
      maximum: 1_000_000,
    }),
    modelOverrides: list(
      object(
        {
          name: string({ maxLength: 200, minLength: 1 }),
          upstreamModel: string({ maxLength: 200, minLength: 1 }),
        },
        { required: ['name', 'upstreamModel'] },
      ),
      {
        description: 'Model names rewritten before forwarding.',
        maxItems: 200,
        listType: 'map',
        mapKeys: ['name'],
      },
    ),
    chatCompletions: enumOf(['Translate', 'Native'], {
      description:
        'OpenAI only: translate /v1/chat/completions to Responses (default) or pass it through.',
    }),
    responsesWebSocket: enumOf(['Enabled', 'Disabled'], {
      description:
        "OpenAI, provider Direct only: the upstream serves Responses over WebSocket (GET <baseURL>/v1/responses). Enabled: the turns of a client's Responses WebSocket go over one upstream socket per client connection (HTTP when the upgrade is refused). Absent or Disabled: every turn is a streamed POST.",
    }),
    pricing: object(
      {
        overrides: list(
          object(
            { model: string({ maxLength: 200, minLength: 1 }), ...prices },
            { required: ['model', 'inputPerMTok', 'outputPerMTok'] },
          ),
          { maxItems: 200, listType: 'map', mapKeys: ['model'] },
        ),
      },
      {
        description:
          "Prices for calls this upstream serves (cloud list prices differ from first-party and by region), by the model the call is billed as; over the price table and the Group's pricing. The Group's rateMultiplier still applies.",
      },
    ),
  },
  {
    required: ['platform', 'credentials'],
    rules: [
      ...providerRules,
      {
        rule: "!has(self.chatCompletions) || self.platform == 'OpenAI'",
        message: 'chatCompletions applies to OpenAI upstreams only',
        fieldPath: '.chatCompletions',
      },
      {
        rule: "!has(self.responsesWebSocket) || self.responsesWebSocket == 'Disabled' || (self.platform == 'OpenAI' && (!has(self.provider) || self.provider == 'Direct'))",
        message: 'responsesWebSocket applies to OpenAI upstreams with provider Direct only',
        fieldPath: '.responsesWebSocket',
      },
      {
        rule: "self.platform != 'Antigravity' || self.credentials.type == 'GoogleOAuth'",
        message: 'Antigravity upstreams authenticate with GoogleOAuth credentials',
        fieldPath: '.credentials.type',
      },
    ],
  },
);

export const upstreamStatus = object({
  ...statusBase(),
  cooldownEndTime: dateTime(
    'Until when the upstream is skipped (cool-down after a 429 / 529, or the open circuit after consecutive failures); absent while it is available.',
  ),
});

export const upstreamDefinition = {
  kind: 'Upstream',
  plural: 'upstreams',
  singular: 'upstream',
  shortNames: ['ups'],
  scope: 'Cluster',
  spec: upstreamSpec,
  status: upstreamStatus,
  printerColumns: [
    { name: 'Platform', type: 'string', jsonPath: '.spec.platform' },
    {
      name: 'Available',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Available")].status',
    },
    {
      name: 'Reason',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Available")].reason',
    },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
