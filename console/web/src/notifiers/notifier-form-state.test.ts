import { describe, expect, it } from 'vitest';
import {
  EMPTY_NOTIFIER_FORM,
  formOf,
  parseThresholds,
  specKeepingSecret,
  specOf,
} from './notifier-form-state.js';

describe('the notifier form', () => {
  it('reads thresholds written with commas or spaces, and refuses anything else', () => {
    expect(parseThresholds('80, 100')).toEqual([80, 100]);
    expect(parseThresholds('50 90 90')).toEqual([50, 90]);
    expect(parseThresholds('')).toBeNull();
    expect(parseThresholds('80, lots')).toBeNull();
    expect(parseThresholds('0')).toBeNull();
    expect(parseThresholds('1001')).toBeNull();
  });

  it('turns the fields into a spec, leaving empty events out', () => {
    const form = {
      ...EMPTY_NOTIFIER_FORM,
      url: ' https://hooks.example.com/t ',
      balanceBelowUSD: '5',
    };
    expect(specOf(form, false)).toEqual({
      webhook: { url: 'https://hooks.example.com/t' },
      events: {
        keyWindows: { thresholds: [80, 100] },
        balanceBelow: { thresholdUSD: '5' },
        keyExpiring: { withinDays: 7 },
      },
    });
  });

  it('sends the upstream events for a ClusterNotifier only', () => {
    const form = { ...EMPTY_NOTIFIER_FORM, target: 'slack' as const, upstreamCircuitOpen: true };
    expect(specOf(form, true).events).toHaveProperty('upstreamCircuitOpen', {});
    expect(specOf(form, false).events).not.toHaveProperty('upstreamCircuitOpen');
    expect(specOf(form, true).slack).toEqual({});
  });

  it('fills the form from a spec and keeps the Secret reference of an edit without a value', () => {
    const spec = {
      slack: { webhookURLSecretRef: { name: 'alerts-notifier-abcde', key: 'webhookURL' } },
      events: { planWindows: { thresholds: [90] }, subscriptionExpiring: { withinDays: 3 } },
    };
    const form = formOf('alerts', spec);
    expect(form).toMatchObject({
      name: 'alerts',
      target: 'slack',
      secretValue: '',
      keyWindows: false,
      planWindows: true,
      thresholds: '90',
      subscriptionExpiringDays: '3',
    });
    expect(specKeepingSecret(form, { cluster: false, current: spec })).toEqual(spec);
  });
});
