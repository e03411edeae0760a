import { describe, expect, it } from 'vitest';
import type { Account } from '../../../crds/schema/resources.js';
import { subscriptionOf } from './account-standing.js';

const account = (spec: Partial<Account['spec']>, status?: Account['status']): Account =>
  ({
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'Account',
    metadata: { name: 'default', namespace: 'demo', uid: 'u', resourceVersion: '1', generation: 1 },
    spec,
    ...(status === undefined ? {} : { status }),
  }) as Account;

describe('the subscription on the dashboard', () => {
  it('is null without a subscription', () => {
    expect(subscriptionOf(account({}))).toBeNull();
    expect(subscriptionOf(undefined)).toBeNull();
  });

  it('carries the operator-written windows of the plan subscribed to', () => {
    const subscribed = account(
      { subscription: { planName: 'pro', startTime: '2026-11-01T00:00:00Z' } },
      {
        subscription: {
          planName: 'pro',
          state: 'Active',
          windows: [{ name: 'Daily', usedUSD: '1.5', capUSD: '10' }],
        },
      },
    );
    expect(subscriptionOf(subscribed)).toEqual({
      planName: 'pro',
      startTime: '2026-11-01T00:00:00Z',
      endTime: null,
      state: 'Active',
      windows: [{ name: 'Daily', usedUSD: '1.5', capUSD: '10', resetTime: null }],
    });
  });

  it('shows no windows of a plan the account no longer names', () => {
    const changed = account(
      { subscription: { planName: 'max', startTime: '2026-11-01T00:00:00Z' } },
      {
        subscription: {
          planName: 'pro',
          state: 'Active',
          windows: [{ name: 'Daily', usedUSD: '1.5', capUSD: '10' }],
        },
      },
    );
    expect(subscriptionOf(changed)).toMatchObject({ planName: 'max', state: null, windows: [] });
  });
});
