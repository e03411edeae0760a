/**
 * The administration forms' pure parts: a full Group, Upstream and Account spec survives the trip
 * through its form; lines that do not parse are refused with their field; credential values are
 * sent only when typed; a refusal goes next to the control whose path is the longest prefix.
 */
import { describe, expect, it } from 'vitest';
import { accountFormFrom, accountSpecFrom } from './account-form-state.js';
import { localError, placeError } from './field-errors.js';
import { groupFormFrom, groupSpecFrom } from './group-form-state.js';
import { decimalValue, integerValue } from './spec-values.js';
import { credentialIsSet, upstreamFormFrom, upstreamWriteFrom } from './upstream-form-state.js';

describe('group form', () => {
  it('gives back every field of a full spec', () => {
    const spec = {
      platform: 'Anthropic',
      description: 'Team A',
      rateMultiplier: '0.8',
      upstreamRefs: [
        { name: 'main', weight: 3, priority: 0 },
        { name: 'backup', weight: 1, priority: 5 },
      ],
      allowedNamespaces: {
        from: 'Selector',
        selector: {
          matchLabels: { team: 'a', tier: 'gold' },
          matchExpressions: [
            { key: 'env', operator: 'In', values: ['prod', 'staging'] },
            { key: 'legacy', operator: 'DoesNotExist' },
          ],
        },
      },
      models: { allow: ['claude-*', 'claude-haiku-4-5'] },
      pricing: {
        fallback: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: '0.3' },
        overrides: [
          {
            model: 'claude-opus-4-1',
            inputPerMTok: 15,
            outputPerMTok: 75,
            cacheWrite5mPerMTok: '18.75',
            cacheWrite1hPerMTok: 30,
          },
        ],
      },
      sessionAffinity: { mode: 'ClientSession', ttlSeconds: 900 },
    };
    const form = groupFormFrom('team-a', spec);
    expect(form.matchExpressions).toBe('env In prod, staging\nlegacy DoesNotExist');
    expect(form.matchLabels).toBe('team=a\ntier=gold');
    expect(groupSpecFrom(form)).toEqual({ spec });
  });

  it('keeps sticky sessions off when the group turns them off, and leaves the defaults unwritten', () => {
    const spec = { platform: 'Gemini', rateMultiplier: 1, allowedNamespaces: { from: 'All' } };
    const form = groupFormFrom('gemini', { ...spec, sessionAffinity: { mode: 'None' } });
    expect(form.sessionMode).toBe('None');
    expect(groupSpecFrom(form)).toEqual({ spec: { ...spec, sessionAffinity: { mode: 'None' } } });
    expect(groupSpecFrom({ ...form, sessionMode: 'ClientSession' })).toEqual({ spec });
  });

  it('starts a new group at multiplier 1 for every namespace, and sends only what is set', () => {
    const form = { ...groupFormFrom('', undefined), platform: 'OpenAI' };
    expect(form.rateMultiplier).toBe('1');
    expect(groupSpecFrom(form)).toEqual({
      spec: { platform: 'OpenAI', rateMultiplier: 1, allowedNamespaces: { from: 'All' } },
    });
  });

  it('refuses a label or expression line it cannot read, naming the line', () => {
    const base = { ...groupFormFrom('g', { platform: 'OpenAI' }), namespaces: 'Selector' as const };
    expect(groupSpecFrom({ ...base, matchLabels: 'team=a\nteam' })).toEqual({
      problem: {
        field: 'spec.allowedNamespaces.selector.matchLabels',
        message: 'Line 2 ("team") is not key=value.',
      },
    });
    const refused = groupSpecFrom({ ...base, matchExpressions: 'env Maybe x' });
    expect(refused).toMatchObject({
      problem: { field: 'spec.allowedNamespaces.selector.matchExpressions' },
    });
  });
});

describe('upstream form', () => {
  it('never holds a credential value, only whether the spec names a Secret', () => {
    const spec = {
      platform: 'OpenAI',
      baseURL: 'https://api.openai.com/v1',
      credentials: { type: 'APIKey', apiKey: { secretRef: { name: 'openai-key', key: 'token' } } },
      maxConcurrentRequests: 16,
      requestsPerMinute: 600,
      modelOverrides: [{ name: 'fast', upstreamModel: 'gpt-5-mini' }],
      chatCompletions: 'Native',
    };
    const form = upstreamFormFrom('openai', spec);
    expect(credentialIsSet(spec)).toBe(true);
    expect(credentialIsSet({ platform: 'OpenAI' })).toBe(false);
    expect(form.apiKeyValue).toBe('');
    // Nothing typed: the same spec, no value sent.
    expect(upstreamWriteFrom(form)).toEqual({ write: { spec } });
    // A value typed: sent beside the spec, for the server to store.
    expect(upstreamWriteFrom({ ...form, apiKeyValue: 'sk-new' })).toEqual({
      write: { spec, apiKeyValue: 'sk-new' },
    });
  });

  it('sends Google OAuth values only both together, and Chat Completions only for OpenAI', () => {
    const spec = {
      platform: 'Antigravity',
      baseURL: 'https://ag.test',
      credentials: {
        type: 'GoogleOAuth',
        googleOAuth: {
          secretRef: { name: 'ag-oauth' },
          clientID: 'client',
          tokenURL: 'https://oauth2.test/token',
          projectID: 'project',
        },
      },
    };
    const form = { ...upstreamFormFrom('ag', spec), chatCompletions: 'Native' };
    expect(upstreamWriteFrom(form)).toEqual({ write: { spec } });
    expect(upstreamWriteFrom({ ...form, refreshToken: 'r' })).toEqual({
      problem: {
        field: 'googleOAuthSecret',
        message: 'Enter both the refresh token and the client secret, or neither.',
      },
    });
    expect(upstreamWriteFrom({ ...form, refreshToken: 'r', clientSecret: 's' })).toEqual({
      write: { spec, googleOAuthSecret: { refreshToken: 'r', clientSecret: 's' } },
    });
  });
});

describe('account form and values', () => {
  it('keeps money as typed and leaves out what is empty', () => {
    const form = accountFormFrom('team-a', { displayName: 'Team A', creditUSD: '12.50' });
    expect(accountSpecFrom(form)).toEqual({ displayName: 'Team A', creditUSD: '12.50' });
    expect(accountSpecFrom({ ...form, creditUSD: '', maxConcurrentRequests: '4' })).toEqual({
      displayName: 'Team A',
      maxConcurrentRequests: 4,
    });
  });

  it('turns whole numbers into numbers and sends the rest as typed', () => {
    expect(decimalValue(' 2 ')).toBe(2);
    expect(decimalValue('0.5')).toBe('0.5');
    expect(decimalValue('')).toBeUndefined();
    expect(integerValue('8')).toBe(8);
    expect(integerValue('eight')).toBe('eight');
  });

  it('places a refusal next to the longest matching control, else next to the action', () => {
    const paths = ['spec.pricing', 'spec.pricing.fallback', 'spec.baseURL'];
    const refusal = localError({ field: 'spec.pricing.fallback.inputPerMTok', message: 'no' });
    expect(placeError(refusal, paths)).toEqual({
      byPath: { 'spec.pricing.fallback': 'no' },
      rest: null,
    });
    const elsewhere = localError({ field: 'metadata.name', message: 'taken' });
    expect(placeError(elsewhere, paths).rest).toBe(elsewhere);
    const plain = new Error('offline');
    expect(placeError(plain, paths)).toEqual({ byPath: {}, rest: plain });
  });
});
