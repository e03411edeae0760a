import { describe, expect, it } from 'vitest';
import { isModelAllowed, matchesGlobs } from '../models/match-model-globs.js';
import { orderUpstreams } from './select-upstream.js';

function sequence(values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length] ?? 0;
}

describe('orderUpstreams', () => {
  const items = [
    { name: 'b1', weight: 1, priority: 2 },
    { name: 'a1', weight: 1, priority: 1 },
    { name: 'a3', weight: 3, priority: 1 },
    { name: 'z', weight: 0, priority: 1 },
  ];

  it('puts the lowest priority first and zero weights last within it', () => {
    const order = orderUpstreams(items, sequence([0])).map((item) => item.name);
    expect(order).toEqual(['a1', 'a3', 'z', 'b1']);
  });

  it('picks by weight within a priority', () => {
    // total 4: a point in [1, 4) lands on a3 (weight 3).
    expect(orderUpstreams(items, sequence([0.5, 0]))[0]?.name).toBe('a3');
    expect(orderUpstreams(items, sequence([0.1, 0]))[0]?.name).toBe('a1');
  });

  it('spreads picks roughly by weight', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const counts = new Map<string, number>();
    for (let run = 0; run < 4000; run++) {
      const first = orderUpstreams(items, random)[0]?.name ?? '';
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    expect(counts.get('b1')).toBeUndefined();
    const ratio = (counts.get('a3') ?? 0) / (counts.get('a1') ?? 1);
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(3.5);
  });
});

describe('model globs', () => {
  it.each([
    ['claude-sonnet-4-6', ['claude-*'], true],
    ['claude-sonnet-4-6', ['claude-opus-*'], false],
    ['gpt-5', ['gpt-?'], true],
    ['gpt-5.1', ['gpt-5'], false],
    ['a.b', ['a.b'], true],
    ['axb', ['a.b'], false],
    ['anything', null, true],
    ['anything', [], false],
  ])('%s against %j', (model, globs, expected) => {
    expect(matchesGlobs(model, globs)).toBe(expected);
  });

  it('needs both group and key to allow', () => {
    expect(isModelAllowed('gpt-5', { group: ['gpt-*'], key: ['gpt-5'] })).toBe(true);
    expect(isModelAllowed('gpt-5-mini', { group: ['gpt-*'], key: ['gpt-5'] })).toBe(false);
    expect(isModelAllowed('o3', { group: ['gpt-*'], key: null })).toBe(false);
  });
});
