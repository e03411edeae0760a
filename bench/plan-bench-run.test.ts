import { describe, expect, it } from 'vitest';
import { takeWorkersFlag } from '../gateway/run-gateway-workers.js';
import { planBenchRun, planCpuPinning } from './plan-bench-run.js';
import { BEGIN_MARKER, END_MARKER, spliceGeneratedSection } from './render-benchmarks-markdown.js';

describe('planBenchRun', () => {
  it('covers every scenario, the three fixed rates and 1 and 2 gateway workers', () => {
    const full = planBenchRun('full');
    expect(full.targets.map((target) => target.id)).toEqual(['A', 'B', 'C1', 'C2', 'D1', 'D2']);
    expect(full.rates).toEqual([200, 500, 1000]);
    expect(full.hold).toMatchObject({ streams: 1000, seconds: 60 });
  });

  it('keeps the quick mode well under two minutes of load', () => {
    const quick = planBenchRun('quick');
    const perTarget =
      quick.warmupMs + quick.rates.length * quick.rateDurationMs + quick.saturation.durationMs;
    const holds = quick.targets.filter((target) => target.hold).length;
    const checks = quick.targets.filter((target) => target.crossCheck).length;
    const loadMs =
      quick.targets.length * perTarget +
      holds * (quick.hold.seconds * 1000 + quick.hold.rampMs) +
      checks * 2 * quick.crossCheck.durationMs +
      quick.profileMs;
    expect(loadMs).toBeLessThan(90_000);
    expect(quick.targets.map((target) => target.id)).toContain('D2');
  });
});

describe('planCpuPinning', () => {
  it('splits CPUs only when there are enough to give the gateway its own', () => {
    expect(planCpuPinning(2)).toBeNull();
    expect(planCpuPinning(4)).toEqual({ rest: '0-1', gateway: '2-3' });
    expect(planCpuPinning(8)).toEqual({ rest: '0-3', gateway: '4-7' });
  });
});

describe('spliceGeneratedSection', () => {
  it('replaces only the text between the markers', () => {
    const existing = `# Benchmarks\n\nAnalysis.\n\n${BEGIN_MARKER}\nold\n${END_MARKER}\n\nMore.\n`;
    const section = `${BEGIN_MARKER}\nnew\n${END_MARKER}`;
    expect(spliceGeneratedSection(existing, section)).toBe(
      `# Benchmarks\n\nAnalysis.\n\n${section}\n\nMore.\n`,
    );
  });

  it('appends the section to a file without markers', () => {
    expect(spliceGeneratedSection('# Benchmarks\n', 'S')).toBe('# Benchmarks\n\nS\n');
  });
});

describe('takeWorkersFlag', () => {
  it('splits --workers off the gateway flags', () => {
    expect(takeWorkersFlag(['--port', '8080', '--workers', '2'])).toEqual({
      workers: 2,
      rest: ['--port', '8080'],
    });
    expect(takeWorkersFlag(['--workers=3'])).toEqual({ workers: 3, rest: [] });
    expect(takeWorkersFlag(['--port=1'])).toEqual({ workers: 1, rest: ['--port=1'] });
  });

  it('refuses a count that is not a whole number from 1', () => {
    expect(() => takeWorkersFlag(['--workers', '0'])).toThrow(/--workers/);
    expect(() => takeWorkersFlag(['--workers', 'two'])).toThrow(/--workers/);
  });
});
