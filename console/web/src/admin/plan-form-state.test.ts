import { describe, expect, it } from 'vitest';
import { DNS_SUBDOMAIN_PATTERN, MONEY_PATTERN } from '../../../../crds/schema/common-fields.js';
import { planSpec } from '../../../../crds/schema/plan.js';
import {
  accountFormFrom,
  accountFormProblem,
  accountSpecFrom,
  instantOf,
  localInputOf,
} from './account-form-state.js';
import { periodText } from './plan-columns.js';
import {
  MODEL_GLOB_PATTERN,
  MONEY_PATTERN as FORM_MONEY,
  PLAN_NAME_PATTERN,
  planFormFrom,
  planFormProblem,
  planSpecFrom,
} from './plan-form-state.js';

const filled = planFormFrom('pro', {
  displayName: 'Pro',
  limits: { fiveHourUSD: '5', dailyUSD: 20, monthlyUSD: '300.50' },
  models: { allow: ['claude-*'] },
  maxConcurrentRequests: 4,
  priceUSD: '20',
  periodDays: 30,
});

describe('plan form', () => {
  it('checks with the CRD patterns', () => {
    expect(FORM_MONEY).toBe(MONEY_PATTERN);
    expect(PLAN_NAME_PATTERN).toBe(DNS_SUBDOMAIN_PATTERN);
    const glob = JSON.stringify(planSpec);
    expect(glob).toContain(JSON.stringify(MODEL_GLOB_PATTERN));
  });

  it('turns a spec into the form and back', () => {
    expect(planFormProblem(filled)).toBeNull();
    expect(planSpecFrom(filled)).toEqual({
      displayName: 'Pro',
      limits: { fiveHourUSD: '5', dailyUSD: '20', monthlyUSD: '300.50' },
      models: { allow: ['claude-*'] },
      maxConcurrentRequests: 4,
      priceUSD: '20',
      periodDays: 30,
    });
    expect(planSpecFrom(planFormFrom('empty', undefined))).toEqual({});
  });

  it('refuses what the CRD refuses, naming the field', () => {
    const limits = (dailyUSD: string) => ({ ...filled, limits: { ...filled.limits, dailyUSD } });
    expect(planFormProblem(limits('0.0000001'))?.field).toBe('spec.limits.dailyUSD');
    expect(planFormProblem(limits('-1'))?.field).toBe('spec.limits.dailyUSD');
    expect(planFormProblem(limits('1000000'))?.field).toBe('spec.limits.dailyUSD');
    expect(planFormProblem(limits('999999.123456'))).toBeNull();
    expect(planFormProblem({ ...filled, name: 'Pro Plan' })?.field).toBe('name');
    expect(planFormProblem({ ...filled, models: 'claude *' })?.field).toBe('spec.models.allow');
    expect(planFormProblem({ ...filled, periodDays: '0' })?.field).toBe('spec.periodDays');
    expect(planFormProblem({ ...filled, periodDays: '3661' })?.field).toBe('spec.periodDays');
    expect(planFormProblem({ ...filled, maxConcurrentRequests: '1.5' })?.field).toBe(
      'spec.maxConcurrentRequests',
    );
    expect(planFormProblem({ ...filled, priceUSD: 'ten' })?.field).toBe('spec.priceUSD');
  });

  it('reads a period', () => {
    expect(periodText(30)).toBe('30 days');
    expect(periodText('1')).toBe('1 day');
    expect(periodText(undefined)).toBe('');
  });
});

describe('account form subscription and member limits', () => {
  it('keeps the subscription, time zone and member limits of the spec', () => {
    const spec = {
      creditUSD: '10',
      subscription: { planName: 'pro', startTime: '2026-11-01T08:00:00Z' },
      timeZone: 'Europe/Berlin',
      memberLimits: { dailyUSD: '5', monthlyUSD: 50 },
    };
    const form = accountFormFrom('team-a', spec);
    expect(accountFormProblem(form)).toBeNull();
    expect(accountSpecFrom(form)).toEqual({
      creditUSD: '10',
      subscription: { planName: 'pro', startTime: '2026-11-01T08:00:00Z' },
      timeZone: 'Europe/Berlin',
      memberLimits: { dailyUSD: '5', monthlyUSD: '50' },
    });
  });

  it('converts between instants and datetime-local text', () => {
    const local = localInputOf('2026-11-01T08:30:00Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(instantOf(local)).toBe('2026-11-01T08:30:00Z');
    expect(instantOf('tomorrow')).toBeUndefined();
    expect(localInputOf(undefined)).toBe('');
  });

  it('refuses a plan without a start, an end before the start and a bad member limit', () => {
    const form = accountFormFrom('team-a', undefined);
    expect(accountFormProblem({ ...form, planName: 'pro' })?.field).toBe(
      'spec.subscription.startTime',
    );
    const started = { ...form, planName: 'pro', startTime: '2026-11-02T00:00' };
    expect(accountFormProblem({ ...started, endTime: '2026-11-01T00:00' })?.field).toBe(
      'spec.subscription.endTime',
    );
    expect(accountFormProblem({ ...started, endTime: '2026-12-01T00:00' })).toBeNull();
    expect(
      accountFormProblem({ ...form, memberLimits: { ...form.memberLimits, weeklyUSD: '1e3' } })
        ?.field,
    ).toBe('spec.memberLimits.weeklyUSD');
    expect(accountFormProblem({ ...form, timeZone: 'Not a zone!' })?.field).toBe('spec.timeZone');
    // No plan: no subscription written (clearing it).
    expect(accountSpecFrom({ ...form, startTime: '2026-11-02T00:00' })).toEqual({});
  });
});
