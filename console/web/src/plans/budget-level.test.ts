import { describe, expect, it } from 'vitest';
import type { SubscriptionStanding } from '../api/usage-api.js';
import { memberRowsOf, usdText } from '../members/member-rows.js';
import { budgetLevel, levelText, refusalsOf } from './budget-level.js';

const now = Date.parse('2026-11-28T12:00:00Z');
const subscription = (change: Partial<SubscriptionStanding> = {}): SubscriptionStanding => ({
  planName: 'pro',
  startTime: '2026-11-01T00:00:00Z',
  endTime: null,
  state: 'Active',
  windows: [
    { name: 'Daily', usedUSD: '8', capUSD: '10', resetTime: '2026-11-29T00:00:00Z' },
    { name: 'Monthly', usedUSD: '10', capUSD: '100', resetTime: '2026-12-01T00:00:00Z' },
  ],
  ...change,
});

describe('budget levels', () => {
  it('warns from 80 % and is used up at 100 %', () => {
    expect(budgetLevel(7.99, 10)).toBe('ok');
    expect(budgetLevel(8, 10)).toBe('warning');
    expect(budgetLevel(10, 10)).toBe('exhausted');
    expect(budgetLevel(0, 0)).toBe('exhausted');
    expect(budgetLevel(1_000, null)).toBe('ok');
    expect(levelText('warning')).toBe('Over 80 % used');
    expect(levelText('ok')).toBe('');
  });
});

describe('refusals', () => {
  const none = { hasBalance: false, member: null, now };

  it('names nothing while every window has room', () => {
    expect(refusalsOf({ ...none, subscription: subscription() })).toEqual([]);
    expect(refusalsOf({ ...none, subscription: null })).toEqual([]);
  });

  it('names a used-up window', () => {
    const full = subscription({
      windows: [{ name: 'Daily', usedUSD: '10.2', capUSD: '10', resetTime: null }],
    });
    const [refusal] = refusalsOf({ ...none, subscription: full });
    expect(refusal?.code).toBe('TG_SUBSCRIPTION_EXHAUSTED');
    expect(refusal?.text).toContain("plan's daily window is used up");
  });

  it('names an ended subscription unless a balance pays', () => {
    const ended = subscription({ endTime: '2026-11-27T00:00:00Z' });
    expect(refusalsOf({ ...none, subscription: ended }).map((r) => r.code)).toEqual([
      'TG_SUBSCRIPTION_EXPIRED',
    ]);
    expect(refusalsOf({ ...none, hasBalance: true, subscription: ended })).toEqual([]);
  });

  it('names the member budget first, as the gateway checks it first', () => {
    const codes = refusalsOf({
      ...none,
      subscription: subscription({ state: 'Expired' }),
      member: { owner: 'kim', spent: [['for today', 5, '5']] },
    }).map((refusal) => refusal.code);
    expect(codes).toEqual(['TG_MEMBER_BUDGET_EXHAUSTED', 'TG_SUBSCRIPTION_EXPIRED']);
  });
});

describe('member rows', () => {
  it('sorts by 30-day spend and marks the viewer and the levels', () => {
    const rows = memberRowsOf({
      namespace: 'demo',
      viewer: 'kim',
      scope: 'all',
      timeZone: 'UTC',
      memberLimits: { dailyUSD: '5', weeklyUSD: null, monthlyUSD: '50' },
      members: [
        { owner: 'kim', todayUSD: 4, sevenDaysUSD: 9, thirtyDaysUSD: 20, requests30Days: 3 },
        { owner: 'olga', todayUSD: 5, sevenDaysUSD: 30, thirtyDaysUSD: 45, requests30Days: 9 },
      ],
    });
    expect(rows.map((row) => row.owner)).toEqual(['olga', 'kim']);
    expect(rows[0]?.today.level).toBe('exhausted');
    expect(rows[0]?.thirtyDays.level).toBe('warning');
    expect(rows[0]?.sevenDays.level).toBe('ok');
    expect(rows[1]?.you).toBe(true);
    expect(rows[1]?.today.level).toBe('warning');
  });

  it('writes a spend as a plain decimal', () => {
    expect(usdText(0.1 + 0.2)).toBe('0.3');
    expect(usdText(1e-7)).toBe('0');
  });
});
