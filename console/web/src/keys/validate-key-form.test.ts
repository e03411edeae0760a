import { describe, expect, it } from 'vitest';
import { keyFixture } from '../../test-support/key-fixture.js';
import {
  createKeyBody,
  editKeyBody,
  emptyKeyForm,
  formFieldOf,
  isAddressOrRange,
  keyFormOf,
  objectNameOf,
  randomSuffix,
  validateKeyForm,
  type KeyForm,
} from './validate-key-form.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const valid = (changes: Partial<KeyForm> = {}): KeyForm => ({
  ...emptyKeyForm('demo', 'x7k2p'),
  name: 'ci-runner',
  groupName: 'anthropic',
  ...changes,
});

describe('create-key form validation', () => {
  it('accepts the minimal form and asks for name and group when missing', () => {
    expect(validateKeyForm(valid(), NOW)).toEqual({});
    const errors = validateKeyForm(emptyKeyForm('demo'), NOW);
    expect(errors.name).toBe('Give the key a name.');
    expect(errors.groupName).toMatch(/Choose a group/);
  });

  it('checks an own value: at least 16 of letters, digits, _ and -', () => {
    expect(validateKeyForm(valid({ value: 'short' }), NOW).value).toBe(
      'At least 16 characters (now 5) of letters, digits, "_" and "-".',
    );
    expect(validateKeyForm(valid({ value: 'has space in it 0123' }), NOW).value).toMatch(
      /Only letters/,
    );
    expect(validateKeyForm(valid({ value: 'abc_DEF-0123456789' }), NOW).value).toBeUndefined();
  });

  it('takes any text as the name; an object name chosen under Advanced is a DNS label', () => {
    expect(validateKeyForm(valid({ name: 'Équipe données 数据 team' }), NOW)).toEqual({});
    expect(validateKeyForm(valid({ name: 'x'.repeat(201) }), NOW).name).toMatch(/At most 200/);
    expect(validateKeyForm(valid({ name: 'a\tb' }), NOW).name).toMatch(/control characters/);
    expect(validateKeyForm(valid({ objectName: 'CI runner' }), NOW).objectName).toMatch(
      /lowercase/,
    );
    expect(validateKeyForm(valid({ objectName: 'a'.repeat(64) }), NOW).objectName).toMatch(
      /at most 63/,
    );
  });

  it('derives the object name from the name unless one is chosen', () => {
    const form = valid({ name: '  Équipe données 数据 team ' });
    expect(objectNameOf(form)).toBe('equipe-donnees-team-x7k2p');
    expect(createKeyBody(form)).toMatchObject({
      name: 'equipe-donnees-team-x7k2p',
      displayName: 'Équipe données 数据 team',
    });
    expect(objectNameOf(valid({ name: '数据' }))).toBe('key-x7k2p');
    expect(createKeyBody(valid({ objectName: ' my-key ' })).name).toBe('my-key');
    expect(randomSuffix()).toMatch(/^[a-z0-9]{5}$/);
  });

  it('checks USD amounts; empty means unlimited', () => {
    const errors = validateKeyForm(valid({ quotaUSD: '5.1234567', dailyUSD: '-1' }), NOW);
    expect(errors.quotaUSD).toMatch(/USD amount/);
    expect(errors.dailyUSD).toMatch(/USD amount/);
    expect(validateKeyForm(valid({ fiveHourUSD: '0', sevenDayUSD: '12.50' }), NOW)).toEqual({});
  });

  it('checks every address line and names the bad one', () => {
    for (const good of ['10.0.0.0/8', '127.0.0.1', '::1', '2001:db8::/32', 'fe80::1/128']) {
      expect(isAddressOrRange(good)).toBe(true);
    }
    for (const bad of ['10.0.0.0/33', '256.1.1.1', 'example.com', '::1/129', '1.2.3.4/8/8', '']) {
      expect(isAddressOrRange(bad)).toBe(false);
    }
    expect(validateKeyForm(valid({ deny: '10.0.0.1\n\n10.0.0.300' }), NOW).deny).toBe(
      'Line 3 ("10.0.0.300") is not an IP address or CIDR range such as 10.0.0.0/8.',
    );
  });

  it('checks the expiry: a whole number of days, or a future date', () => {
    expect(validateKeyForm(valid({ expiryMode: 'period', validDays: '7.5' }), NOW).validDays).toBe(
      'Enter a whole number of days, such as 30.',
    );
    expect(
      validateKeyForm(valid({ expiryMode: 'date', expiresAt: '2026-01-01T00:00' }), NOW).expiresAt,
    ).toBe('Choose a time in the future.');
    expect(validateKeyForm(valid({ expiryMode: 'date', expiresAt: '' }), NOW).expiresAt).toBe(
      'Choose a date and time.',
    );
  });

  it('makes the request body: limits above 0 only, address lists, validity', () => {
    const body = createKeyBody(
      valid({
        value: 'abc_DEF-0123456789',
        quotaUSD: '5',
        fiveHourUSD: '0',
        dailyUSD: ' 2.5 ',
        allow: '10.0.0.0/8\n  \n::1',
        expiryMode: 'period',
        validDays: '90',
        enabled: false,
      }),
    );
    expect(body).toEqual({
      name: 'ci-runner-x7k2p',
      displayName: 'ci-runner',
      groupName: 'anthropic',
      value: 'abc_DEF-0123456789',
      limits: { quotaUSD: '5', dailyUSD: '2.5' },
      sourceRanges: { allow: ['10.0.0.0/8', '::1'], deny: [] },
      validFor: '90d',
      enabled: false,
    });
    expect(createKeyBody(valid())).toEqual({
      name: 'ci-runner-x7k2p',
      displayName: 'ci-runner',
      groupName: 'anthropic',
      enabled: true,
    });
    const dated = createKeyBody(valid({ expiryMode: 'date', expiresAt: '2030-01-02T03:04Z' }));
    expect(dated.expirationTime).toBe('2030-01-02T03:04:00.000Z');
  });

  it('maps a server error field to the form field', () => {
    expect(formFieldOf('limits.dailyUSD')).toBe('dailyUSD');
    expect(formFieldOf('sourceRanges.deny.2')).toBe('deny');
    expect(formFieldOf('value')).toBe('value');
    expect(formFieldOf('displayName')).toBe('name');
    expect(formFieldOf('name')).toBe('objectName');
    expect(formFieldOf('validFor')).toBe('validDays');
    expect(formFieldOf('modelsAllow')).toBeUndefined();
    expect(formFieldOf(undefined)).toBeUndefined();
  });

  it('fills the edit form from a key and sends every field back, null to remove', () => {
    const key = keyFixture(1, {
      sourceRanges: { allow: ['10.0.0.0/8', '::1'], deny: [] },
      expirationTime: null,
    });
    const form = keyFormOf(key);
    expect(form).toMatchObject({
      account: 'demo',
      name: 'key-0001',
      objectName: 'key-0001',
      groupName: 'openai',
      quotaUSD: '10',
      dailyUSD: '2',
      fiveHourUSD: '',
      allow: '10.0.0.0/8\n::1',
      expiryMode: 'never',
      enabled: true,
    });
    expect(validateKeyForm(form, NOW)).toEqual({});
    const edited = { ...form, name: ' Équipe 数据 ', dailyUSD: '', quotaUSD: '7', deny: '1.2.3.4' };
    expect(editKeyBody(edited, 42)).toEqual({
      displayName: 'Équipe 数据',
      groupName: 'openai',
      limits: { quotaUSD: '7', fiveHourUSD: null, dailyUSD: null, sevenDayUSD: null },
      sourceRanges: { allow: ['10.0.0.0/8', '::1'], deny: ['1.2.3.4'] },
      expirationTime: null,
      enabled: true,
      generation: 42,
    });
    const dated = keyFormOf(keyFixture(3, { expirationTime: '2030-01-02T03:04:00Z' }));
    expect(dated.expiryMode).toBe('date');
    expect(dated.enabled).toBe(false);
    expect(editKeyBody(dated, 1).expirationTime).toBe('2030-01-02T03:04:00.000Z');
    expect(editKeyBody({ ...dated, expiryMode: 'period', validDays: '30' }, 1)).toMatchObject({
      validFor: '30d',
    });
  });
});
