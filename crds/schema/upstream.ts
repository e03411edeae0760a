/** Upstream: one upstream credential (cluster-scoped, admin-owned). */
import { API_GROUP, dateTime, objectName, platform, statusBase } from './common-fields.js';
import { enumOf, integer, list, object, string } from './schema-builder.js';

const secretKeyRef = object(
  {
    name: objectName('Secret in the operator namespace.'),
    key: string({ maxLength: 253, minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' }),
  },
  { required: ['name', 'key'] },
);

const credentials = object(
  {
    type: enumOf(['APIKey', 'GoogleOAuth'], { description: 'Which credential member is set.' }),
    apiKey: object(
      { secretRef: secretKeyRef },
      { required: ['secretRef'], description: 'An API key read from a Secret.' },
    ),
    googleOAuth: object(
      {
        secretRef: object(
          { name: objectName('Secret holding refreshToken and clientSecret.') },
          { required: ['name'] },
        ),
        clientID: string({ maxLength: 512, minLength: 1 }),
        tokenURL: string({ maxLength: 2048, pattern: '^https?://' }),
        projectID: string({ maxLength: 256, minLength: 1 }),
      },
      {
        required: ['secretRef', 'clientID', 'tokenURL', 'projectID'],
        description: 'A Google OAuth refresh token exchanged for access tokens.',
      },
    ),
  },
  {
    required: ['type'],
    rules: [
      {
        rule: "self.type == 'APIKey' ? has(self.apiKey) && !has(self.googleOAuth) : has(self.googleOAuth) && !has(self.apiKey)",
        message:
          'set exactly the member named by type (apiKey for APIKey, googleOAuth for GoogleOAuth)',
      },
    ],
  },
);

export const upstreamSpec = object(
  {
    platform: platform('The protocol the upstream speaks. Immutable.'),
    baseURL: string({
      description: 'Origin and optional path prefix, for example https://api.anthropic.com.',
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
  },
  {
    required: ['platform', 'baseURL', 'credentials'],
    rules: [
      {
        rule: "!has(self.chatCompletions) || self.platform == 'OpenAI'",
        message: 'chatCompletions applies to OpenAI upstreams only',
        fieldPath: '.chatCompletions',
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
