/**
 * Refused admin specs in plain words: the resource model's patterns, missing fields, enums, sizes,
 * and a decimal given as an out-of-range integer described by its string form.
 */
import { describe, expect, it } from 'vitest';
import {
  accountSpecSchema,
  groupSpecSchema,
  upstreamSpecSchema,
} from '../../../crds/schema/resources.js';
import { describeSpecIssue, firstSpecIssue } from './admin-spec-issue.js';

const described = (schema: Parameters<typeof firstSpecIssue>[0], spec: unknown) =>
  describeSpecIssue(firstSpecIssue(schema, spec));

describe('describeSpecIssue', () => {
  it('says the money, multiplier and URL patterns as people write them', () => {
    expect(described(accountSpecSchema, { creditUSD: '12.3456789' })).toEqual({
      field: 'spec.creditUSD',
      message: 'spec.creditUSD must be an amount in USD such as 12 or 0.50 (at most 6 decimals).',
    });
    expect(described(groupSpecSchema, { platform: 'OpenAI', rateMultiplier: 0 })).toEqual({
      field: 'spec.rateMultiplier',
      message:
        'spec.rateMultiplier must be a number greater than 0 such as 1 or 0.5 (at most 6 decimals).',
    });
    expect(
      described(groupSpecSchema, { platform: 'OpenAI', upstreamRefs: [{ name: 'Main_1' }] }),
    ).toEqual({
      field: 'spec.upstreamRefs.0.name',
      message: "spec.upstreamRefs.0.name must be lower-case letters, digits, '-' and '.'.",
    });
  });

  it('says what is missing, which values are allowed, and sizes', () => {
    expect(
      described(upstreamSpecSchema, { platform: 'OpenAI', baseURL: 'https://x.test' }),
    ).toEqual({ field: 'spec.credentials', message: 'spec.credentials is required.' });
    expect(described(groupSpecSchema, { platform: 'Mistral' })).toEqual({
      field: 'spec.platform',
      message: 'spec.platform must be one of Anthropic, OpenAI, Gemini, Antigravity.',
    });
    expect(described(accountSpecSchema, { maxConcurrentRequests: 2_000_000 })).toEqual({
      field: 'spec.maxConcurrentRequests',
      message: 'spec.maxConcurrentRequests must be at most 1000000.',
    });
  });

  it('finds nothing in a valid spec', () => {
    expect(firstSpecIssue(accountSpecSchema, { creditUSD: '10' })).toBeUndefined();
  });
});
