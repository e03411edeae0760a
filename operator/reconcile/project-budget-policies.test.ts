import { describe, expect, it } from 'vitest';
import type { Account, Plan } from '../../crds/schema/resources.js';
import { projectAccountPolicy, projectSubscriptionStatus } from './project-account-policy.js';
import { projectKeyBudget } from './project-key-budget.js';

const meta = (name: string, namespace?: string) => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: `uid-${name}`,
  resourceVersion: '1',
  generation: 1,
  creationTimestamp: '2026-01-01T00:00:00Z',
});

const plan: Plan = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'Plan',
  metadata: meta('pro'),
  spec: {
    displayName: 'Pro',
    limits: { fiveHourUSD: '2', dailyUSD: '10' },
    models: { allow: ['claude-*'] },
    maxConcurrentRequests: 4,
  },
};

const account: Account = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'Account',
  metadata: meta('default', 'team-a'),
  spec: {
    maxConcurrentRequests: 8,
    subscription: { planName: 'pro', startTime: '2026-11-01T00:00:00Z' },
    timeZone: 'Europe/Berlin',
    memberLimits: { dailyUSD: '1.5' },
  },
};

describe('plan and member budget projection', () => {
  it('projects the subscription, the lower concurrency, member limits and time zone', () => {
    expect(projectAccountPolicy(account, plan)).toMatchObject({
      maxConcurrent: 4,
      plan: {
        planName: 'pro',
        startTime: Date.parse('2026-11-01T00:00:00Z'),
        endTime: null,
        limits: { FiveHour: 2e9, Daily: 10e9, Weekly: 0, Monthly: 0 },
      },
      memberLimits: { Daily: 1.5e9, Weekly: 0, Monthly: 0 },
      timeZone: 'Europe/Berlin',
    });
  });

  it('never admits as the plan while its Plan is missing', () => {
    const policy = projectAccountPolicy(account, null);
    expect(policy.plan).toMatchObject({ planName: 'pro', startTime: 0, endTime: 0 });
    expect(policy.maxConcurrent).toBe(8);
  });

  it('leaves an account without either as before', () => {
    const plain = { ...account, spec: { maxConcurrentRequests: 8, timeZone: 'UTC' } };
    const policy = projectAccountPolicy(plain, null);
    expect(policy).not.toHaveProperty('plan');
    expect(policy).not.toHaveProperty('memberLimits');
    expect(policy).not.toHaveProperty('timeZone');
    expect(projectKeyBudget(plain, null)).toBeNull();
  });

  it("gives keys the plan's models and the time zone", () => {
    expect(projectKeyBudget(account, plan)).toEqual({
      plan: true,
      memberLimits: true,
      timeZone: 'Europe/Berlin',
      planModelsAllow: ['claude-*'],
    });
  });

  it('shows the state and each capped window on the status', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    const status = projectSubscriptionStatus(account, {
      plan,
      counters: {
        spentNano: 3e9,
        reservedNano: 0,
        planWindows: [
          { name: 'FiveHour', usedNano: 1e9, resetTime: now + 3_600_000 },
          { name: 'Daily', usedNano: 3e9, resetTime: Date.parse('2026-11-28T23:00:00Z') },
          { name: 'Weekly', usedNano: 3e9, resetTime: null },
          { name: 'Monthly', usedNano: 3e9, resetTime: null },
        ],
      },
      now,
    });
    expect(status).toEqual({
      planName: 'pro',
      state: 'Active',
      windows: [
        { name: 'FiveHour', usedUSD: '1', capUSD: '2', resetTime: '2026-11-28T11:00:00.000Z' },
        { name: 'Daily', usedUSD: '3', capUSD: '10', resetTime: '2026-11-28T23:00:00.000Z' },
      ],
    });
    const ended = {
      ...account,
      spec: {
        ...account.spec,
        subscription: {
          planName: 'pro',
          startTime: '2026-01-01T00:00:00Z',
          endTime: '2026-02-01T00:00:00Z',
        },
      },
    };
    expect(projectSubscriptionStatus(ended, { plan, counters: null, now })?.state).toBe('Expired');
    expect(projectSubscriptionStatus(account, { plan: null, counters: null, now })?.state).toBe(
      'PlanNotFound',
    );
  });
});
