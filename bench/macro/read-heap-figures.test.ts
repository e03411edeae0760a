import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseHeapFigures } from './read-heap-figures.js';

describe('parseHeapFigures', () => {
  it('reads every heap space and the external memory off a prefixed metrics page', async () => {
    // The page prom-client itself writes, with the prefix the gateway gives its default metrics.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tollgate_' });
    const text = await registry.metrics();
    const figures = parseHeapFigures(text);
    const spaces = [
      ...text.matchAll(/^tollgate_nodejs_heap_space_size_total_bytes\{space="(\w+)"\}/gm),
    ];
    expect(spaces.length).toBeGreaterThan(3);
    expect(Object.keys(figures).sort()).toEqual(
      [...spaces.map((match) => match[1]), 'external_memory_bytes'].sort(),
    );
    const total = Number(/^tollgate_nodejs_heap_size_total_bytes (\S+)$/m.exec(text)?.[1]);
    const summed = Object.entries(figures)
      .filter(([name]) => name !== 'external_memory_bytes')
      .reduce((sum, [, megabytes]) => sum + megabytes, 0);
    // Each space is rounded to 0.1 MB.
    expect(Math.abs(summed - total / 1_000_000)).toBeLessThan(0.05 * spaces.length + 0.01);
    expect(figures.old).toBeGreaterThan(0);
  });

  it('reads nothing from a page of other metrics', () => {
    expect(parseHeapFigures('tollgate_requests_total{platform="OpenAI"} 3\n')).toEqual({});
  });
});
