import { describe, expect, it } from 'vitest';
import {
  cpuMsPerCall,
  cpuSecondsBetween,
  parseTargets,
  sideBySideCommand,
} from './side-by-side-figures.js';

describe('parseTargets', () => {
  it('runs every target by default, in run order', () => {
    expect(parseTargets(undefined)).toEqual(['A', 'B', 'D', 'E', 'F']);
    expect(parseTargets('')).toEqual(['A', 'B', 'D', 'E', 'F']);
  });

  it('keeps the run order and drops repeats, whatever the case', () => {
    expect(parseTargets('f,B, d,b')).toEqual(['B', 'D', 'F']);
  });

  it('refuses an unknown target', () => {
    expect(() => parseTargets('B,C')).toThrow(/unknown side-by-side target C/);
  });
});

describe('cpuSecondsBetween', () => {
  it('counts a process that started in between whole and one that ended not at all', () => {
    const before = new Map([
      [10, 1.5],
      [11, 2],
    ]);
    const after = new Map([
      [10, 2],
      [12, 0.25],
    ]);
    expect(cpuSecondsBetween(before, after)).toBeCloseTo(0.75);
  });
});

describe('cpuMsPerCall', () => {
  it('gives each process its share per call and the total', () => {
    expect(cpuMsPerCall({ gateway: 0.5, redis: 0.25 }, 1000)).toEqual({
      byProcess: { gateway: 0.5, redis: 0.25 },
      total: 0.75,
    });
  });

  it('is NaN without calls', () => {
    expect(cpuMsPerCall({ gateway: 1 }, 0).byProcess.gateway).toBeNaN();
  });
});

describe('sideBySideCommand', () => {
  it('names the targets only when they were chosen', () => {
    expect(sideBySideCommand(false, null)).toBe('npm run bench -- --side-by-side');
    expect(sideBySideCommand(true, ['E', 'F'])).toBe(
      'npm run bench -- --side-by-side --quick --targets E,F',
    );
  });

  it('names the experiment options (repeat, kinds, tail only)', () => {
    expect(
      sideBySideCommand(false, ['B', 'E'], { repeat: 3, kinds: ['streamed'], tailOnly: true }),
    ).toBe('npm run bench -- --side-by-side --targets B,E --repeat 3 --kinds streamed --tail-only');
    expect(sideBySideCommand(false, null, { repeat: 1, kinds: null })).toBe(
      'npm run bench -- --side-by-side',
    );
  });
});
