import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../crds/schema/resources.js';
import { nanoToUsd } from '../usage/nano-to-usd.js';
import { keyViewOf } from './api-key-view.js';

const NOW = Date.UTC(2026, 10, 27, 12);

const apiKey: ApiKey = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'ApiKey',
  metadata: {
    name: 'k1',
    namespace: 'team-a',
    uid: 'uid-1',
    creationTimestamp: '2026-11-01T00:00:00Z',
  },
  spec: { groupName: 'anthropic', limits: { quotaUSD: '10' } },
  status: {
    usage: {
      usedUSD: '0',
      windows: [{ name: 'Daily', usedUSD: '0' }],
      observedTime: '2026-11-27T11:59:00Z',
    },
  },
} as ApiKey;

describe('key view', () => {
  it('writes nano-USD exactly', () => {
    expect(nanoToUsd(86_793_000)).toBe('0.086793');
    expect(nanoToUsd(1)).toBe('0.000000001');
    expect(nanoToUsd(12_500_000_000)).toBe('12.5');
    expect(nanoToUsd(0)).toBe('0');
    expect(nanoToUsd(-250)).toBe('-0.00000025');
  });

  it("shows the live counters when read, the status's figures when not, and says which", () => {
    const live = keyViewOf(apiKey, {
      now: NOW,
      todayCost: 86_793,
      counters: {
        usedNano: 86_793,
        reservedNano: 0,
        windows: [
          { name: 'FiveHour', usedNano: 86_793, resetTime: NOW + 3_600_000 },
          { name: 'Daily', usedNano: 86_793, resetTime: NOW + 7_200_000 },
          { name: 'SevenDay', usedNano: 0, resetTime: null },
        ],
        lastUsedTime: NOW - 1_500,
        lastQuotaResetToken: null,
      },
    });
    expect(live.usage).toEqual({
      usedUSD: '0.000086793',
      windows: [
        { name: 'FiveHour', usedUSD: '0.000086793', resetTime: '2026-11-27T13:00:00Z' },
        { name: 'Daily', usedUSD: '0.000086793', resetTime: '2026-11-27T14:00:00Z' },
        { name: 'SevenDay', usedUSD: '0', resetTime: null },
      ],
      lastUsedTime: '2026-11-27T11:59:58Z',
      todayCostUSD: '0.000086793',
      ledgerUnavailable: false,
      countersSource: 'store',
    });
    const fromStatus = keyViewOf(apiKey, { now: NOW, todayCost: 'unavailable' });
    expect(fromStatus.usage).toEqual({
      usedUSD: '0',
      windows: [{ name: 'Daily', usedUSD: '0', resetTime: null }],
      lastUsedTime: null,
      todayCostUSD: null,
      ledgerUnavailable: true,
      countersSource: 'status',
    });
  });
});
