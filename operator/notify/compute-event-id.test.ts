import { describe, expect, it } from 'vitest';
import { computeEventId, type EventFact } from './compute-event-id.js';

const fact: EventFact = {
  notifierUid: 'uid-1',
  type: 'KeyWindowThreshold',
  subject: { namespace: 'team-a', kind: 'ApiKey', name: 'ci', window: 'Daily' },
  threshold: 80,
  period: '1800000000000',
};

describe('computeEventId', () => {
  it('is the same for the same fact', () => {
    expect(computeEventId({ ...fact, subject: { ...fact.subject } })).toBe(computeEventId(fact));
    expect(computeEventId(fact)).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it.each([
    ['notifier', { notifierUid: 'uid-2' }],
    ['type', { type: 'PlanWindowThreshold' as const }],
    ['threshold', { threshold: 100 }],
    ['period (the window reset)', { period: '1800018000000' }],
    ['subject', { subject: { ...fact.subject, window: 'FiveHour' } }],
  ])('changes with the %s', (_name, change) => {
    expect(computeEventId({ ...fact, ...change })).not.toBe(computeEventId(fact));
  });
});
