/** Group: picks the platform, upstreams, price multiplier and models for its keys (cluster-scoped). */
import {
  API_GROUP,
  POSITIVE_DECIMAL_PATTERN,
  labelSelector,
  modelGlobs,
  money,
  objectName,
  platform,
  statusBase,
  withDefault,
} from './common-fields.js';
import {
  decimal,
  enumOf,
  integer,
  list,
  object,
  string,
  withCodeDefault,
} from './schema-builder.js';
import { captureSettings } from './capture-fields.js';

/** Per-million-token prices, shared with the Upstream's price override. */
export const prices = {
  inputPerMTok: money('USD per million uncached input tokens.'),
  outputPerMTok: money('USD per million output tokens (reasoning included).'),
  cacheReadPerMTok: money('USD per million cache-read tokens; absent = 0.1 x input.'),
  cacheWrite5mPerMTok: money('USD per million 5-minute cache-write tokens; absent = 1.25 x input.'),
  cacheWrite1hPerMTok: money('USD per million 1-hour cache-write tokens; absent = 2 x input.'),
};

export const groupSpec = object(
  {
    platform: platform('The protocol every key of this group speaks. Immutable.'),
    description: string({ maxLength: 1024 }),
    rateMultiplier: withDefault(
      decimal({
        description: 'Cost = list price x this multiplier. Greater than 0.',
        pattern: POSITIVE_DECIMAL_PATTERN,
        maxLength: 11,
        minInteger: 1,
        maxInteger: 9999,
      }),
      1,
    ),
    upstreamRefs: list(
      object(
        {
          name: objectName('An Upstream of the same platform.'),
          weight: withCodeDefault(
            integer({ description: 'Share of traffic; absent = 1.', minimum: 1, maximum: 1000 }),
            1,
          ),
          priority: withCodeDefault(
            integer({
              description: 'Lower is tried first; absent = 0.',
              minimum: 0,
              maximum: 1000,
            }),
            0,
          ),
        },
        { required: ['name'] },
      ),
      { maxItems: 32, listType: 'map', mapKeys: ['name'] },
    ),
    sessionAffinity: object(
      {
        mode: withCodeDefault(
          enumOf(['ClientSession', 'None'], {
            description:
              'ClientSession (default): calls of one conversation (the session identity the client sends) go to the upstream that served it while that upstream is available, so its prompt cache is reused. None: every call is scheduled afresh.',
          }),
          'ClientSession',
        ),
        ttlSeconds: withCodeDefault(
          integer({
            description: 'How long a session stays bound after its last call; absent = 3600.',
            minimum: 60,
            maximum: 604_800,
          }),
          3600,
        ),
      },
      {
        description:
          'Sticky sessions, bound per account (namespace); a binding breaks when its upstream cools down.',
      },
    ),
    firstOutputTimeoutSeconds: integer({
      description:
        "How long a streamed reply may take, after the upstream's 2xx headers, to send its first event; when none comes the attempt is abandoned (nothing reached the caller), counted as a failure of that upstream, and the call fails over to the next upstream. Absent = the gateway's --first-output-timeout-ms (default off); 0 = off for this group.",
      minimum: 0,
      maximum: 3600,
    }),
    streamIdleTimeoutSeconds: integer({
      description:
        "Longest silence between two chunks of an upstream reply; a stream silent longer ends with the caller protocol's error event and is billed for what was delivered. Absent = the gateway's --body-timeout-ms (default 300 s).",
      minimum: 1,
      maximum: 3600,
    }),
    capture: captureSettings(
      "Keep the bodies of this group's calls, redacted, in the ledger (docs/captures.md); off by default. Each key's spec.capture overrides these fields one by one.",
    ),
    allowedNamespaces: withDefault(
      object(
        {
          from: withDefault(enumOf(['All', 'Selector']), 'All'),
          selector: labelSelector,
        },
        {
          description: "Which namespaces' keys may use this group.",
          rules: [
            {
              rule: "self.from != 'Selector' || has(self.selector)",
              message: 'selector is required when from is Selector',
              fieldPath: '.selector',
            },
          ],
        },
      ),
      { from: 'All' },
    ),
    models: object({ allow: modelGlobs('Model globs the keys may use; absent = all.') }),
    pricing: object({
      overrides: list(
        object(
          { model: string({ maxLength: 200, minLength: 1 }), ...prices },
          { required: ['model', 'inputPerMTok', 'outputPerMTok'] },
        ),
        { maxItems: 200, listType: 'map', mapKeys: ['model'] },
      ),
      fallback: object(prices, {
        required: ['inputPerMTok', 'outputPerMTok'],
        description:
          'Price for models absent from the price table; absent = such models are refused.',
      }),
    }),
  },
  { required: ['platform'] },
);

export const groupStatus = object(statusBase());

export const groupDefinition = {
  kind: 'Group',
  plural: 'groups',
  singular: 'group',
  shortNames: ['tgg'],
  scope: 'Cluster',
  spec: groupSpec,
  status: groupStatus,
  printerColumns: [
    { name: 'Platform', type: 'string', jsonPath: '.spec.platform' },
    { name: 'Multiplier', type: 'string', jsonPath: '.spec.rateMultiplier' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  group: API_GROUP,
} as const;
