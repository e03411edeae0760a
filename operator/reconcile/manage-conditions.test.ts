import { describe, expect, it } from 'vitest';
import { formatTime, mergeConditions } from './manage-conditions.js';
import { matchLabelSelector } from './match-label-selector.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');

describe('mergeConditions', () => {
  const ready = { type: 'Ready', status: 'True', reason: 'Active', message: 'ok' } as const;

  it('stamps new conditions with now and the generation', () => {
    const merged = mergeConditions({
      current: undefined,
      desired: [ready],
      generation: 3,
      now: t0,
    });
    expect(merged).toEqual([
      { ...ready, observedGeneration: 3, lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
  });

  it('keeps lastTransitionTime while the status stays, even when the reason changes', () => {
    const first = mergeConditions({ current: undefined, desired: [ready], generation: 1, now: t0 });
    const second = mergeConditions({
      current: first,
      desired: [{ ...ready, reason: 'Other', message: 'still true' }],
      generation: 2,
      now: t1,
    });
    expect(second[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    expect(second[0]?.reason).toBe('Other');
    expect(second[0]?.observedGeneration).toBe(2);
  });

  it('changes lastTransitionTime when the status flips', () => {
    const first = mergeConditions({ current: undefined, desired: [ready], generation: 1, now: t0 });
    const second = mergeConditions({
      current: first,
      desired: [{ type: 'Ready', status: 'False', reason: 'Suspended', message: 'off' }],
      generation: 2,
      now: t1,
    });
    expect(second[0]?.lastTransitionTime).toBe('2026-01-01T00:05:00Z');
  });

  it('keeps conditions it does not manage', () => {
    const other = {
      type: 'Available',
      status: 'True' as const,
      reason: 'Ok',
      message: '',
      lastTransitionTime: formatTime(t0),
    };
    const merged = mergeConditions({ current: [other], desired: [ready], generation: 1, now: t1 });
    expect(merged.map((condition) => condition.type)).toEqual(['Ready', 'Available']);
  });
});

describe('matchLabelSelector', () => {
  const labels = { team: 'a', tier: 'gold' };
  it.each([
    [{ matchLabels: { team: 'a' } }, true],
    [{ matchLabels: { team: 'b' } }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['gold'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn' as const, values: ['gold'] }] }, false],
    [{ matchExpressions: [{ key: 'x', operator: 'Exists' as const }] }, false],
    [{ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' as const }] }, true],
    [{}, true],
  ])('%j -> %s', (selector, expected) => {
    expect(matchLabelSelector(selector, labels)).toBe(expected);
  });
});
