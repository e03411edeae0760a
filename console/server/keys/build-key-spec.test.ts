import { describe, expect, it } from 'vitest';
import { buildCreateSpec, buildEditPatch, expirationOf } from './build-key-spec.js';
import { createKeySchema, editKeySchema } from './key-schemas.js';

const NOW = Date.UTC(2026, 2, 20, 15, 30, 45, 123);

describe('key input translation', () => {
  it('splits IP lists one per line, trimming and dropping empty lines', () => {
    const input = createKeySchema.parse({
      displayName: 'ci',
      sourceRanges: { allow: ' 10.0.0.0/8\r\n\n192.168.1.1 \n', deny: '2001:db8::/32' },
    });
    expect(input.sourceRanges).toEqual({
      allow: ['10.0.0.0/8', '192.168.1.1'],
      deny: ['2001:db8::/32'],
    });
    const spec = buildCreateSpec(input, { secretName: 's', now: NOW });
    expect(spec.sourceRanges).toEqual({
      allow: ['10.0.0.0/8', '192.168.1.1'],
      deny: ['2001:db8::/32'],
    });
  });

  it('takes lists as arrays too, and refuses lines that are not addresses', () => {
    const input = createKeySchema.parse({ displayName: 'ci', sourceRanges: { allow: ['::1'] } });
    expect(input.sourceRanges?.allow).toEqual(['::1']);
    const refused = createKeySchema.safeParse({
      displayName: 'ci',
      sourceRanges: { allow: '10.0.0.1\nexample.com' },
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['sourceRanges', 'allow', 1]);
  });

  it('leaves out an empty list on create and removes it (null) on edit', () => {
    const create = createKeySchema.parse({ displayName: 'ci', sourceRanges: { allow: '\n' } });
    expect(buildCreateSpec(create, { secretName: 's', now: NOW }).sourceRanges).toBeUndefined();
    const edit = editKeySchema.parse({ sourceRanges: { allow: '' } });
    expect(buildEditPatch(edit, NOW)).toEqual({ spec: { sourceRanges: { allow: null } } });
  });

  it('turns a validity period into an expiry from now, in whole seconds', () => {
    expect(expirationOf({ validFor: '12h' }, NOW)).toBe('2026-03-21T03:30:45Z');
    expect(expirationOf({ validFor: '30d' }, NOW)).toBe('2026-04-19T15:30:45Z');
    expect(expirationOf({ expirationTime: '2027-01-01T00:00:00Z' }, NOW)).toBe(
      '2027-01-01T00:00:00Z',
    );
    expect(expirationOf({ expirationTime: null }, NOW)).toBeNull();
    expect(expirationOf({}, NOW)).toBeUndefined();
    const input = createKeySchema.parse({ displayName: 'ci', validFor: '1d' });
    expect(buildCreateSpec(input, { secretName: 's', now: NOW }).expirationTime).toBe(
      '2026-03-21T15:30:45Z',
    );
  });

  it('refuses malformed periods and a period together with an expiry time', () => {
    for (const validFor of ['0d', '12', '3w', '-1h', '100000d']) {
      expect(createKeySchema.safeParse({ displayName: 'ci', validFor }).success, validFor).toBe(
        false,
      );
    }
    const both = createKeySchema.safeParse({
      displayName: 'ci',
      validFor: '1d',
      expirationTime: '2027-01-01T00:00:00Z',
    });
    expect(both.error?.issues[0]?.path).toEqual(['validFor']);
  });

  it('builds the create spec: suspend from enabled, limits as strings, the Secret reference', () => {
    const input = createKeySchema.parse({
      displayName: 'CI key',
      enabled: false,
      limits: { quotaUSD: 10, dailyUSD: '2.5', fiveHourUSD: null },
      modelsAllow: ['claude-*'],
      maxConcurrentRequests: 4,
    });
    expect(buildCreateSpec(input, { secretName: 'ci-key-abc', now: NOW })).toEqual({
      displayName: 'CI key',
      suspend: true,
      limits: { quotaUSD: '10', dailyUSD: '2.5' },
      models: { allow: ['claude-*'] },
      maxConcurrentRequests: 4,
      secretName: 'ci-key-abc',
      secretKey: 'apiKey',
    });
  });

  it('builds a merge patch for an edit: null removes, absent leaves, version guards', () => {
    const input = editKeySchema.parse({
      groupName: null,
      modelsAllow: null,
      limits: { quotaUSD: null, dailyUSD: '3' },
      generation: 4,
    });
    expect(buildEditPatch(input, NOW)).toEqual({
      spec: { groupName: null, models: null, limits: { quotaUSD: null, dailyUSD: '3' } },
    });
  });
});

describe('the owner of a new key', () => {
  it('is the signed-in user on create, and an edit never sends it', () => {
    const create = createKeySchema.parse({ displayName: 'ci' });
    expect(buildCreateSpec(create, { secretName: 's', now: NOW, owner: 'kim' }).owner).toBe('kim');
    expect(buildCreateSpec(create, { secretName: 's', now: NOW }).owner).toBeUndefined();
    const edit = editKeySchema.parse({ displayName: 'renamed' });
    expect(buildEditPatch(edit, NOW).spec).not.toHaveProperty('owner');
  });
});
