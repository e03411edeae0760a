import { describe, expect, it } from 'vitest';
import { HEALTHY } from '../../store/upstream-health.js';
import { evaluateNotifier, type NotifierUnderEvaluation } from './evaluate-notifier.js';
import { reachedThresholds } from './evaluate-thresholds.js';
import type { NotificationSnapshot } from './notification-snapshot.js';

const USD = 1_000_000_000;
const NOW = Date.parse('2026-11-28T10:00:00Z');

function snapshot(overrides: Partial<NotificationSnapshot> = {}): NotificationSnapshot {
  return { now: NOW, keys: [], accounts: [], upstreams: [], ...overrides };
}

function key(usedUSD: number, overrides: { period?: string; name?: string } = {}) {
  return {
    namespace: 'team-a',
    name: overrides.name ?? 'ci',
    expirationTime: null,
    windows: [
      {
        name: 'Daily',
        usedNano: usedUSD * USD,
        capNano: 10 * USD,
        period: overrides.period ?? '1000',
        resetTime: 1000,
      },
    ],
  };
}

const keyNotifier: NotifierUnderEvaluation = {
  uid: 'n-1',
  namespace: 'team-a',
  spec: { events: { keyWindows: {} } },
};

describe('reachedThresholds', () => {
  it.each([
    [7.99, []],
    [8, [80]],
    [9.99, [80]],
    [10, [80, 100]],
    [12, [80, 100]],
  ])('$%s of $10 reaches %j', (used, expected) => {
    expect(
      reachedThresholds({ usedNano: used * USD, capNano: 10 * USD, thresholds: undefined }),
    ).toEqual(expected);
  });

  it('reaches nothing without a cap and uses the thresholds given', () => {
    expect(reachedThresholds({ usedNano: 5, capNano: 0, thresholds: undefined })).toEqual([]);
    expect(
      reachedThresholds({ usedNano: 5 * USD, capNano: 10 * USD, thresholds: [50, 50, 90] }),
    ).toEqual([50]);
  });
});

describe('evaluateNotifier', () => {
  it('fires one event per threshold reached, with the same ids on the next evaluation', () => {
    const first = evaluateNotifier(keyNotifier, snapshot({ keys: [key(8.5)] }));
    expect(first.map((event) => [event.type, event.figures.thresholdPercent])).toEqual([
      ['KeyWindowThreshold', 80],
    ]);
    expect(first[0]?.subject).toEqual({
      namespace: 'team-a',
      kind: 'ApiKey',
      name: 'ci',
      window: 'Daily',
    });
    expect(first[0]?.figures).toMatchObject({ percent: 85, usedUSD: '8.5', capUSD: '10' });
    const later = evaluateNotifier(keyNotifier, snapshot({ now: NOW + 60_000, keys: [key(10)] }));
    expect(later.map((event) => event.id)).toEqual([first[0]?.id, expect.any(String)]);
    expect(later[1]?.figures.thresholdPercent).toBe(100);
  });

  it('names a new fact once the window reset', () => {
    const before = evaluateNotifier(keyNotifier, snapshot({ keys: [key(9)] }));
    const after = evaluateNotifier(keyNotifier, snapshot({ keys: [key(9, { period: '2000' })] }));
    expect(after[0]?.id).not.toBe(before[0]?.id);
  });

  it('keeps to its namespace, its key names and its windows', () => {
    const other = { ...key(9), namespace: 'team-b' };
    expect(evaluateNotifier(keyNotifier, snapshot({ keys: [other] }))).toEqual([]);
    const named = { ...keyNotifier, spec: { events: { keyWindows: { keyNames: ['other'] } } } };
    expect(evaluateNotifier(named, snapshot({ keys: [key(9)] }))).toEqual([]);
    const fiveHour = {
      ...keyNotifier,
      spec: { events: { keyWindows: { windows: ['FiveHour' as const] } } },
    };
    expect(evaluateNotifier(fiveHour, snapshot({ keys: [key(9)] }))).toEqual([]);
    const suspended = { ...keyNotifier, spec: { suspend: true, events: { keyWindows: {} } } };
    expect(evaluateNotifier(suspended, snapshot({ keys: [key(9)] }))).toEqual([]);
  });

  const account = {
    namespace: 'team-a',
    creditNano: 20 * USD,
    spentNano: 16 * USD,
    subscriptionEnd: NOW + 2 * 86_400_000,
    planName: 'pro',
    planWindows: [],
    members: [],
  };

  it('fires balance-below while the balance is under the threshold, again after a top-up', () => {
    const notifier: NotifierUnderEvaluation = {
      uid: 'n-2',
      namespace: 'team-a',
      spec: { events: { balanceBelow: { thresholdUSD: '5' } } },
    };
    const low = evaluateNotifier(notifier, snapshot({ accounts: [account] }));
    expect(low.map((event) => [event.type, event.figures.balanceUSD])).toEqual([
      ['BalanceBelow', '4'],
    ]);
    expect(
      evaluateNotifier(notifier, snapshot({ accounts: [{ ...account, spentNano: 14 * USD }] })),
    ).toEqual([]);
    const toppedUp = evaluateNotifier(
      notifier,
      snapshot({ accounts: [{ ...account, creditNano: 30 * USD, spentNano: 26 * USD }] }),
    );
    expect(toppedUp[0]?.id).not.toBe(low[0]?.id);
  });

  it('fires key and subscription expiry within the days asked, not after the expiry', () => {
    const notifier: NotifierUnderEvaluation = {
      uid: 'n-3',
      namespace: 'team-a',
      spec: { events: { keyExpiring: { withinDays: 3 }, subscriptionExpiring: { withinDays: 1 } } },
    };
    const expiring = { ...key(0), windows: [], expirationTime: NOW + 2.5 * 86_400_000 };
    const events = evaluateNotifier(notifier, snapshot({ keys: [expiring], accounts: [account] }));
    expect(events.map((event) => [event.type, event.figures.daysLeft])).toEqual([
      ['KeyExpiring', 2],
    ]);
    const expired = { ...expiring, expirationTime: NOW - 1 };
    expect(evaluateNotifier(notifier, snapshot({ keys: [expired] }))).toEqual([]);
  });

  it('reports upstream events to a ClusterNotifier only', () => {
    const upstream = {
      name: 'anthropic-a',
      health: {
        ...HEALTHY,
        state: 'CircuitOpen' as const,
        until: NOW + 30_000,
        failures: 5,
        credentialsFailedAt: NOW - 1,
      },
    };
    const cluster: NotifierUnderEvaluation = {
      uid: 'c-1',
      namespace: null,
      spec: { events: { upstreamCircuitOpen: {}, upstreamCredentialsInvalid: { enabled: true } } },
    };
    expect(
      evaluateNotifier(cluster, snapshot({ upstreams: [upstream] })).map((event) => event.type),
    ).toEqual(['UpstreamCredentialsInvalid', 'UpstreamCircuitOpen']);
    expect(
      evaluateNotifier({ ...cluster, namespace: 'team-a' }, snapshot({ upstreams: [upstream] })),
    ).toEqual([]);
    const off = { ...cluster, spec: { events: { upstreamCircuitOpen: { enabled: false } } } };
    expect(evaluateNotifier(off, snapshot({ upstreams: [upstream] }))).toEqual([]);
  });
});
