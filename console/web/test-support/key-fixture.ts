/** Test data: a key as the console API lists it. */
import type { KeyView } from '../src/api/console-api.js';

export function keyFixture(index: number, changes: Partial<KeyView> = {}): KeyView {
  const name = `key-${String(index).padStart(4, '0')}`;
  return {
    name,
    namespace: 'demo',
    uid: `uid-${index}`,
    resourceVersion: '1',
    generation: 1,
    displayName: name,
    groupName: index % 2 === 0 ? 'anthropic' : 'openai',
    owner: null,
    state: index % 3 === 0 ? 'disabled' : 'enabled',
    ready: { status: 'True', reason: 'Ready', message: null },
    keyHint: `sk-tg-…${String(index).padStart(4, '0')}`,
    limits: { quotaUSD: '10', fiveHourUSD: null, dailyUSD: '2', sevenDayUSD: null },
    sourceRanges: { allow: [], deny: [] },
    expirationTime: null,
    maxConcurrentRequests: null,
    modelsAllow: null,
    usage: {
      usedUSD: String((index % 10) + 0.5),
      windows: [{ name: 'Daily', usedUSD: '1', resetTime: '2026-06-02T00:00:00Z' }],
      lastUsedTime: null,
      todayCostUSD: String(index / 100),
      ledgerUnavailable: false,
      countersSource: 'store',
    },
    createdTime: '2026-06-01T00:00:00Z',
    ...changes,
  };
}
