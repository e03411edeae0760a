import { describe, expect, it } from 'vitest';
import type { Account, ApiKey, Group, Upstream } from '../../crds/schema/resources.js';
import { projectAccountFigures, projectAccountPolicy } from './project-account-policy.js';
import { projectGroupPolicy, projectGroupRefsCondition } from './project-group-policy.js';
import { projectKeyPolicy } from './project-key-policy.js';
import { projectKeyUsage, mergeKeyUsage } from './project-key-status.js';
import { projectUpstreamPolicy, resolveUpstreamCredential } from './project-upstream-policy.js';

const meta = (name: string, namespace?: string) => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: `uid-${name}`,
  resourceVersion: '1',
  generation: 1,
  creationTimestamp: '2026-01-01T00:00:00Z',
});

const group: Group = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'Group',
  metadata: meta('claude'),
  spec: {
    platform: 'Anthropic',
    rateMultiplier: '1.5',
    allowedNamespaces: { from: 'All' },
    upstreamRefs: [{ name: 'primary', weight: 3, priority: 0 }],
    models: { allow: ['claude-*'] },
    pricing: {
      overrides: [{ model: 'claude-sonnet-4', inputPerMTok: 3, outputPerMTok: '15' }],
      fallback: { inputPerMTok: '0.8', outputPerMTok: 4, cacheReadPerMTok: '0.08' },
    },
  },
};

const apiKey: ApiKey = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'ApiKey',
  metadata: meta('k1', 'team-a'),
  spec: {
    groupName: 'claude',
    secretKey: 'apiKey',
    suspend: false,
    expirationTime: '2026-02-01T00:00:00Z',
    limits: { quotaUSD: '10.5', dailyUSD: 2 },
    sourceRanges: { allow: ['10.0.0.0/8'] },
    maxConcurrentRequests: 4,
  },
};

describe('projectKeyPolicy', () => {
  it('embeds the group platform, exact multiplier, upstreams and prices in nano-USD per token', () => {
    const policy = projectKeyPolicy({ apiKey, state: 'Active', group });
    expect(policy).toMatchObject({
      keyUid: 'uid-k1',
      namespace: 'team-a',
      name: 'k1',
      state: 'Active',
      suspended: false,
      expiresAt: Date.parse('2026-02-01T00:00:00Z'),
      limits: {
        quotaNano: 10_500_000_000,
        fiveHourNano: 0,
        dailyNano: 2_000_000_000,
        sevenDayNano: 0,
      },
      sourceRanges: { allow: ['10.0.0.0/8'], deny: [] },
      maxConcurrent: 4,
      modelsAllow: null,
      group: {
        name: 'claude',
        platform: 'Anthropic',
        multiplier: { numerator: 3, denominator: 2 },
        multiplierText: '1.5',
        upstreams: [{ name: 'primary', weight: 3, priority: 0 }],
        modelsAllow: ['claude-*'],
        priceOverrides: {
          'claude-sonnet-4': {
            input: 3000,
            output: 15000,
            cacheRead: 300,
            cacheWrite5m: 3750,
            cacheWrite1h: 6000,
          },
        },
        priceFallback: {
          input: 800,
          output: 4000,
          cacheRead: 80,
          cacheWrite5m: 1000,
          cacheWrite1h: 1600,
        },
      },
    });
    expect(policy.digest).toMatch(/^[0-9a-f]{32}$/);
  });

  it('carries no group unless the state is Active', () => {
    expect(projectKeyPolicy({ apiKey, state: 'GroupNotFound', group: null }).group).toBeNull();
    expect(projectKeyPolicy({ apiKey, state: 'InvalidKey', group }).group).toBeNull();
  });

  it('has a digest that follows the content and nothing else', () => {
    const a = projectKeyPolicy({ apiKey, state: 'Active', group });
    const b = projectKeyPolicy({ apiKey: structuredClone(apiKey), state: 'Active', group });
    const suspended = projectKeyPolicy({
      apiKey: { ...apiKey, spec: { ...apiKey.spec, suspend: true } },
      state: 'Active',
      group,
    });
    expect(b.digest).toBe(a.digest);
    expect(suspended.digest).not.toBe(a.digest);
  });

  it('carries the stream timeouts only when the group sets them', () => {
    const plain = projectKeyPolicy({ apiKey, state: 'Active', group }).group;
    expect(plain).not.toHaveProperty('firstOutputTimeoutMs');
    expect(plain).not.toHaveProperty('streamIdleTimeoutMs');
    const timed = projectKeyPolicy({
      apiKey,
      state: 'Active',
      group: {
        ...group,
        spec: { ...group.spec, firstOutputTimeoutSeconds: 20, streamIdleTimeoutSeconds: 90 },
      },
    });
    expect(timed.group).toMatchObject({
      firstOutputTimeoutMs: 20_000,
      streamIdleTimeoutMs: 90_000,
    });
    const off = projectKeyPolicy({
      apiKey,
      state: 'Active',
      group: { ...group, spec: { ...group.spec, firstOutputTimeoutSeconds: 0 } },
    });
    expect(off.group?.firstOutputTimeoutMs).toBe(0);
    expect(timed.digest).not.toBe(projectKeyPolicy({ apiKey, state: 'Active', group }).digest);
  });
});

describe('group projection', () => {
  it('projects the group document', () => {
    expect(projectGroupPolicy(group)).toMatchObject({
      name: 'claude',
      platform: 'Anthropic',
      multiplierText: '1.5',
      upstreams: [{ name: 'primary', weight: 3, priority: 0 }],
    });
  });

  it('reports PlatformMismatch before UpstreamNotFound', () => {
    const two = {
      ...group,
      spec: { ...group.spec, upstreamRefs: [{ name: 'primary' }, { name: 'gone' }] },
    };
    expect(projectGroupRefsCondition(group, new Map([['primary', 'Anthropic']]))).toMatchObject({
      status: 'True',
    });
    expect(projectGroupRefsCondition(two, new Map([['primary', 'OpenAI']]))).toMatchObject({
      status: 'False',
      reason: 'PlatformMismatch',
    });
    expect(projectGroupRefsCondition(two, new Map([['primary', 'Anthropic']]))).toMatchObject({
      status: 'False',
      reason: 'UpstreamNotFound',
      message: 'upstreams not found: gone',
    });
  });
});

describe('account projection', () => {
  const account: Account = {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'Account',
    metadata: meta('default', 'team-a'),
    spec: { creditUSD: '100', maxConcurrentRequests: 8 },
  };

  it('projects credit in nano-USD and the balance from the counters', () => {
    expect(projectAccountPolicy(account)).toMatchObject({
      uid: 'uid-default',
      namespace: 'team-a',
      creditNano: 100_000_000_000,
      maxConcurrent: 8,
    });
    expect(projectAccountFigures(account, { spentNano: 1_250_000_000, reservedNano: 0 })).toEqual({
      spentUSD: '1.25',
      balanceUSD: '98.75',
    });
  });

  it('has no balance without a credit', () => {
    const unlimited = { ...account, spec: {} };
    expect(projectAccountPolicy(unlimited).creditNano).toBeNull();
    expect(projectAccountFigures(unlimited, { spentNano: 5, reservedNano: 0 })).toEqual({
      spentUSD: '0.000000005',
    });
  });
});

describe('upstream projection', () => {
  const upstream: Upstream = {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'Upstream',
    metadata: meta('primary'),
    spec: {
      platform: 'Anthropic',
      baseURL: 'https://api.anthropic.com',
      credentials: { type: 'APIKey', apiKey: { secretRef: { name: 'anthropic', key: 'token' } } },
    },
  };

  it('reports SecretNotFound and SecretKeyMissing', () => {
    expect(resolveUpstreamCredential(upstream, undefined)).toMatchObject({
      ok: false,
      condition: { reason: 'SecretNotFound' },
    });
    expect(
      resolveUpstreamCredential(upstream, { namespace: 'tollgate-system', data: { other: 'x' } }),
    ).toMatchObject({ ok: false, condition: { reason: 'SecretKeyMissing' } });
  });

  it('keeps its digest when only the sealing differs, changes it with the credential', () => {
    const credential = resolveUpstreamCredential(upstream, {
      namespace: 'tollgate-system',
      data: { token: 'secret-1' },
    });
    expect(credential).toEqual({ ok: true, plaintext: JSON.stringify({ apiKey: 'secret-1' }) });
    const plaintext = credential.ok ? credential.plaintext : '';
    const a = projectUpstreamPolicy(upstream, { plaintext, sealed: 'v1.one' });
    const b = projectUpstreamPolicy(upstream, { plaintext, sealed: 'v1.two' });
    const c = projectUpstreamPolicy(upstream, {
      plaintext: '{"apiKey":"secret-2"}',
      sealed: 'v1.x',
    });
    expect(a.digest).toBe(b.digest);
    expect(c.digest).not.toBe(a.digest);
    expect(JSON.stringify(a)).not.toContain('secret-1');
    expect(a).toMatchObject({
      credentialType: 'APIKey',
      oauth: null,
      chatCompletions: 'Translate',
    });
  });

  it('projects responsesWebSocket only when Enabled, leaving other digests unchanged', () => {
    const credential = { plaintext: '{"apiKey":"k"}', sealed: 'v1.k' };
    const plain = projectUpstreamPolicy(upstream, credential);
    const withSpec = (value: 'Enabled' | 'Disabled') =>
      projectUpstreamPolicy(
        { ...upstream, spec: { ...upstream.spec, responsesWebSocket: value } },
        credential,
      );
    expect(plain.responsesWebSocket).toBeUndefined();
    expect(withSpec('Disabled')).toEqual(plain);
    const enabled = withSpec('Enabled');
    expect(enabled.responsesWebSocket).toBe(true);
    expect(enabled.digest).not.toBe(plain.digest);
  });
});

describe('GoogleOAuth upstream projection', () => {
  const upstream: Upstream = {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'Upstream',
    metadata: meta('antigravity'),
    spec: {
      platform: 'Antigravity',
      baseURL: 'https://cloudcode-pa.googleapis.com',
      credentials: {
        type: 'GoogleOAuth',
        googleOAuth: {
          secretRef: { name: 'google' },
          clientID: 'client-1',
          tokenURL: 'https://oauth2.googleapis.com/token',
          projectID: 'project-1',
        },
      },
    },
  };

  it('needs refreshToken and clientSecret, and keeps the non-secret half in clear', () => {
    expect(
      resolveUpstreamCredential(upstream, { namespace: 'x', data: { refreshToken: 'r' } }),
    ).toMatchObject({
      ok: false,
      condition: { reason: 'SecretKeyMissing', message: /clientSecret/ },
    });
    const credential = resolveUpstreamCredential(upstream, {
      namespace: 'x',
      data: { refreshToken: 'r', clientSecret: 's' },
    });
    expect(credential).toEqual({
      ok: true,
      plaintext: JSON.stringify({ refreshToken: 'r', clientSecret: 's' }),
    });
    const policy = projectUpstreamPolicy(upstream, { plaintext: 'x', sealed: 'v1.s' });
    expect(policy).toMatchObject({
      credentialType: 'GoogleOAuth',
      oauth: {
        clientID: 'client-1',
        tokenURL: 'https://oauth2.googleapis.com/token',
        projectID: 'project-1',
      },
      sealedCredential: 'v1.s',
    });
  });
});

describe('key usage', () => {
  const counters = {
    usedNano: 1_500_000_000,
    reservedNano: 0,
    windows: [
      {
        name: 'Daily' as const,
        usedNano: 500_000_000,
        resetTime: Date.parse('2026-01-02T00:00:00Z'),
      },
      { name: 'FiveHour' as const, usedNano: 0, resetTime: null },
    ],
    lastUsedTime: Date.parse('2026-01-01T10:00:00Z'),
    lastQuotaResetToken: null,
  };

  it('formats the counters', () => {
    expect(projectKeyUsage(counters)).toEqual({
      usedUSD: '1.5',
      windows: [
        { name: 'Daily', usedUSD: '0.5', resetTime: '2026-01-02T00:00:00Z' },
        { name: 'FiveHour', usedUSD: '0' },
      ],
      lastUsedTime: '2026-01-01T10:00:00Z',
    });
  });

  it('keeps the observed time when nothing changed', () => {
    const first = mergeKeyUsage(
      undefined,
      projectKeyUsage(counters),
      Date.parse('2026-01-01T11:00:00Z'),
    );
    const again = mergeKeyUsage(
      first,
      projectKeyUsage(counters),
      Date.parse('2026-01-01T11:01:00Z'),
    );
    expect(again).toBe(first);
    const changed = mergeKeyUsage(
      first,
      projectKeyUsage({ ...counters, usedNano: 2_000_000_000 }),
      Date.parse('2026-01-01T11:01:00Z'),
    );
    expect(changed.observedTime).toBe('2026-01-01T11:01:00Z');
  });
});
