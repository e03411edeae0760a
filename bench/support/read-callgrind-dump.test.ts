import { describe, expect, it } from 'vitest';
import { instructionsPerCall, readCallgrindTotal } from './read-callgrind-dump.js';

describe('readCallgrindTotal', () => {
  it('reads the totals line of a dump', () => {
    const dump = [
      '# callgrind format',
      'version: 1',
      'events: Ir',
      'fl=(1) a.js',
      '0 12',
      'totals: 243634762',
      '',
    ];
    expect(readCallgrindTotal(dump.join('\n'))).toBe(243_634_762);
  });

  it('reads a summary line when there is no totals line', () => {
    expect(readCallgrindTotal('events: Ir\nsummary: 4096\n')).toBe(4096);
  });

  it('refuses text that is not a dump', () => {
    expect(() => readCallgrindTotal('events: Ir\n0 12\n')).toThrow(/no totals line/);
  });
});

describe('instructionsPerCall', () => {
  it('takes the idle rate over the round out before dividing by the calls', () => {
    expect(instructionsPerCall({ instructions: 1_000_000, seconds: 10, calls: 100 }, 20_000)).toBe(
      8_000,
    );
  });

  it('never goes below zero', () => {
    expect(instructionsPerCall({ instructions: 10, seconds: 10, calls: 1 }, 100)).toBe(0);
  });

  it('refuses a round without calls', () => {
    expect(() => instructionsPerCall({ instructions: 10, seconds: 1, calls: 0 }, 0)).toThrow(
      /no calls/,
    );
  });
});
