/** Fields shared by the Tollgate kinds: names, money, IP ranges, conditions, label selectors. */
import {
  decimal,
  enumOf,
  integer,
  list,
  object,
  string,
  stringMap,
  withDefault,
} from './schema-builder.js';

export const API_GROUP = 'tollgate.dev';
export const API_VERSION = 'v1alpha1';

/** USD, at most $999,999.999999; `0` and absent mean what each field says. */
export const MONEY_PATTERN = '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,6})?$';

export function money(description: string) {
  return decimal({
    description,
    pattern: MONEY_PATTERN,
    maxLength: 13,
    minInteger: 0,
    maxInteger: 999_999,
  });
}

/** A positive decimal (greater than zero), at most 9999.999999. */
export const POSITIVE_DECIMAL_PATTERN =
  '^([1-9][0-9]{0,3}(\\.[0-9]{1,6})?|0\\.(0{0,5}[1-9][0-9]{0,5}))$';

/** RFC 1123 subdomain (object names). */
export const DNS_SUBDOMAIN_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

export function objectName(description: string) {
  return string({ description, maxLength: 253, minLength: 1, pattern: DNS_SUBDOMAIN_PATTERN });
}

const IPV4 =
  '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}';
const IPV6 = '[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f]{0,4}){2,7}(:' + IPV4 + ')?';
/** An IPv4 or IPv6 address, optionally with a CIDR prefix length. The operator checks it exactly. */
export const IP_RANGE_PATTERN = `^((${IPV4})(/(3[0-2]|[12]?[0-9]))?|(${IPV6})(/(12[0-8]|1[01][0-9]|[1-9]?[0-9]))?)$`;

export function ipRanges(description: string) {
  return list(string({ maxLength: 64, pattern: IP_RANGE_PATTERN }), {
    description,
    maxItems: 100,
    listType: 'set',
  });
}

export function modelGlobs(description: string) {
  return list(string({ maxLength: 200, minLength: 1, pattern: '^[A-Za-z0-9._:/@*?\\[\\]-]+$' }), {
    description,
    maxItems: 200,
    listType: 'set',
  });
}

export const PLATFORMS = ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function platform(description: string) {
  return enumOf(PLATFORMS, {
    description,
    rules: [{ rule: 'self == oldSelf', message: 'platform is immutable' }],
  });
}

export const dateTime = (description: string) =>
  string({ description, maxLength: 64, format: 'date-time' });

export const condition = object(
  {
    type: string({ maxLength: 316, pattern: '^[A-Za-z][A-Za-z0-9]*$' }),
    status: enumOf(['True', 'False', 'Unknown']),
    reason: string({ maxLength: 1024, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
    message: string({ maxLength: 32768 }),
    observedGeneration: integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    lastTransitionTime: dateTime('When the status last changed.'),
  },
  { required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'] },
);

export function statusBase() {
  return {
    observedGeneration: integer({
      description: 'The generation of the spec this status describes.',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    }),
    conditions: list(condition, {
      description: 'Ready is the summary; ResolvedRefs and Programmed give the detail.',
      maxItems: 16,
      listType: 'map',
      mapKeys: ['type'],
    }),
  };
}

const labelSelectorRequirement = object(
  {
    key: string({ maxLength: 317 }),
    operator: enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist']),
    values: list(string({ maxLength: 63 }), { maxItems: 64, listType: 'atomic' }),
  },
  { required: ['key', 'operator'] },
);

export const labelSelector = object({
  matchLabels: stringMap(string({ maxLength: 63 }), { maxProperties: 64 }),
  matchExpressions: list(labelSelectorRequirement, { maxItems: 32, listType: 'atomic' }),
});

export { withDefault };
