import { describe, expect, it } from 'vitest';
import type { KubeObject } from './kube-object.js';
import { objectName } from './kube-object.js';
import { parseFieldSelector, parseLabelSelector } from './select-objects.js';

const object = (name: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'ns', labels },
});
const objects = [
  object('a', { tier: 'gold', team: 'x' }),
  object('b', { tier: 'silver' }),
  object('c', {}),
];
const names = (selector: (o: KubeObject) => boolean): string[] =>
  objects.filter(selector).map((o) => objectName(o));

describe('selectors', () => {
  it('matches label equality, inequality, sets and existence', () => {
    expect(names(parseLabelSelector('tier=gold'))).toEqual(['a']);
    expect(names(parseLabelSelector('tier==gold,team=x'))).toEqual(['a']);
    expect(names(parseLabelSelector('tier!=gold'))).toEqual(['b', 'c']);
    expect(names(parseLabelSelector('tier in (gold, silver)'))).toEqual(['a', 'b']);
    expect(names(parseLabelSelector('tier notin (gold)'))).toEqual(['b', 'c']);
    expect(names(parseLabelSelector('team'))).toEqual(['a']);
    expect(names(parseLabelSelector('!tier'))).toEqual(['c']);
    expect(names(parseLabelSelector(''))).toEqual(['a', 'b', 'c']);
    expect(() => parseLabelSelector('tier in gold')).toThrow(/unable to parse/);
  });

  it('matches metadata.name and metadata.namespace fields', () => {
    expect(names(parseFieldSelector('metadata.name=b', false))).toEqual(['b']);
    expect(names(parseFieldSelector('metadata.name!=b,metadata.namespace==ns', false))).toEqual([
      'a',
      'c',
    ]);
    expect(() => parseFieldSelector('spec.x=1', false)).toThrow(/field label not supported/);
    expect(names(parseFieldSelector('involvedObject.name=a', true))).toEqual(['a', 'b', 'c']);
  });
});
