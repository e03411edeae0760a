import { describe, expect, it } from 'vitest';
import { formatRelative, usedFraction } from './format-values.js';

describe('formatting', () => {
  it('says times relative to now', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(formatRelative('2026-06-01T15:00:00Z', now)).toBe('in 3 h');
    expect(formatRelative('2026-06-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-05-29T12:00:00Z', now)).toBe('3 d ago');
    expect(formatRelative(null, now)).toBe('never');
  });

  it('gives the used fraction of a limit, none without a limit', () => {
    expect(usedFraction('2.5', '10')).toBe(0.25);
    expect(usedFraction('12', '10')).toBe(1);
    expect(usedFraction('1', null)).toBeNull();
    expect(usedFraction('1', '0')).toBeNull();
  });
});
