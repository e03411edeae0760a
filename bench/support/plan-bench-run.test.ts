import { describe, expect, it } from 'vitest';
import { takeWorkersFlag } from '../../gateway/run-gateway-workers.js';
import { planBenchRun, planCpuPinning } from './plan-bench-run.js';
import {
  beginMarker,
  endMarker,
  spliceGeneratedSection,
} from '../macro/render-benchmarks-markdown.js';

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
  const full = `${beginMarker('full')}\nold full\n${endMarker('full')}`;

  it('replaces only the section of the same mode', () => {
    const existing = `# Benchmarks\n\nAnalysis.\n\n${full}\n\nMore.\n`;
    const section = `${beginMarker('full')}\nnew\n${endMarker('full')}`;
    expect(spliceGeneratedSection(existing, { mode: 'full', section })).toBe(
      `# Benchmarks\n\nAnalysis.\n\n${section}\n\nMore.\n`,
    );
  });

  it('appends a mode that has no section yet, keeping the other', () => {
    const existing = `# Benchmarks\n\n${full}\n`;
    const quick = `${beginMarker('quick')}\nq\n${endMarker('quick')}`;
    expect(spliceGeneratedSection(existing, { mode: 'quick', section: quick })).toBe(
      `# Benchmarks\n\n${full}\n\n${quick}\n`,
    );
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
