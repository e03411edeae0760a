/**
 * A refused Group, Upstream or Account spec in plain words: the first zod issue becomes
 * `{ field: 'spec.<path>', message }`, with the resource model's patterns (money, multipliers,
 * names, URLs) said as people would say them.
 */
import type { z } from 'zod';
import {
  DNS_SUBDOMAIN_PATTERN,
  MONEY_PATTERN,
  POSITIVE_DECIMAL_PATTERN,
} from '../../../crds/schema/common-fields.js';

const PATTERNS: [string, string][] = [
  [MONEY_PATTERN, 'must be an amount in USD such as 12 or 0.50 (at most 6 decimals)'],
  [
    POSITIVE_DECIMAL_PATTERN,
    'must be a number greater than 0 such as 1 or 0.5 (at most 6 decimals)',
  ],
  [DNS_SUBDOMAIN_PATTERN, "must be lower-case letters, digits, '-' and '.'"],
  ['^https?://[^\\s]+$', 'must be a URL starting with http:// or https://'],
  ['^https?://', 'must be a URL starting with http:// or https://'],
];

function sizeWord(origin: unknown): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array') return ' entries';
  return '';
}

function plain(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_format': {
      const pattern = 'pattern' in issue ? issue.pattern : '';
      const known = PATTERNS.find(([source]) => pattern === String(new RegExp(source)));
      return known?.[1] ?? 'has an invalid format';
    }
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be a ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${sizeWord(issue.origin)}`;
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1
        ? 'must not be empty'
        : `must be at least ${String(issue.minimum)}${sizeWord(issue.origin)}`;
    case 'unrecognized_keys':
      return `has unknown fields: ${issue.keys.join(', ')}`;
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
      return issue.message.toLowerCase();
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function withValueAt(value: unknown, path: readonly PropertyKey[], replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  const copy: Record<PropertyKey, unknown> = Array.isArray(value)
    ? ([...(value as unknown[])] as unknown as Record<PropertyKey, unknown>)
    : { ...(value as Record<PropertyKey, unknown>) };
  copy[key] = withValueAt(copy[key], rest, replacement);
  return copy;
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((key, index) => key === b[index]);

/**
 * The first issue of a refused spec. A decimal field takes an integer or a string: a number out
 * of the integer range is described by what its string form must look like (`0` as a
 * multiplier: "greater than 0 such as 1 or 0.5", not "at least 1").
 */
export function firstSpecIssue(schema: z.ZodType, spec: unknown): z.core.$ZodIssue | undefined {
  const result = schema.safeParse(spec);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  if (issue === undefined) return undefined;
  const value = valueAt(spec, issue.path);
  if ((issue.code === 'too_small' || issue.code === 'too_big') && typeof value === 'number') {
    const retry = schema.safeParse(withValueAt(spec, issue.path, String(value)));
    const again = retry.success ? undefined : retry.error.issues[0];
    if (again?.code === 'invalid_format' && samePath(again.path, issue.path)) return again;
  }
  return issue;
}

export function describeSpecIssue(issue: z.core.$ZodIssue | undefined): {
  field: string;
  message: string;
} {
  if (issue === undefined) return { field: 'spec', message: 'The spec is not valid.' };
  const field = ['spec', ...issue.path.map(String)].join('.');
  return { field, message: `${field} ${plain(issue)}.` };
}
