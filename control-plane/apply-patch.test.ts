import { describe, expect, it } from 'vitest';
import { applyPatch, jsonPatch, mergePatch, patchTypeOf } from './apply-patch.js';

describe('patches', () => {
  it('merge patch sets, replaces lists and deletes with null', () => {
    const target = { a: 1, b: { c: 2, d: 3 }, l: [1, 2] };
    expect(mergePatch(target, { b: { c: null, e: 4 }, l: [9] })).toEqual({
      a: 1,
      b: { d: 3, e: 4 },
      l: [9],
    });
    expect(target.b).toEqual({ c: 2, d: 3 });
  });

  it('json patch adds, removes, replaces, moves, copies and tests', () => {
    const target = { metadata: { finalizers: ['x', 'y'] }, spec: { a: 'v' } };
    const result = jsonPatch(target, [
      { op: 'test', path: '/spec/a', value: 'v' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'z' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'replace', path: '/spec/a', value: 'w' },
      { op: 'copy', from: '/spec/a', path: '/spec/b' },
      { op: 'move', from: '/spec/b', path: '/spec/c' },
      { op: 'add', path: '/spec/with~1slash', value: 1 },
    ]);
    expect(result).toEqual({
      metadata: { finalizers: ['y', 'z'] },
      spec: { a: 'w', c: 'w', 'with/slash': 1 },
    });
  });

  it('json patch refuses missing paths and failed tests', () => {
    expect(() => jsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/x', value: 1 }])).toThrow(
      'jsonpatch: path /spec/x does not exist',
    );
    expect(() => jsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow(
      /test failed/,
    );
  });

  it('strategic merge ignores directives, and is only offered to core kinds', () => {
    const patched = applyPatch(
      { data: { a: 'QQ==' } },
      { type: 'strategic', body: { $setElementOrder: [], data: { b: 'Qg==', $patch: 'merge' } } },
    );
    expect(patched).toEqual({ data: { a: 'QQ==', b: 'Qg==' } });
    expect(patchTypeOf('application/strategic-merge-patch+json', true)).toBe('strategic');
    expect(() => patchTypeOf('application/strategic-merge-patch+json', false)).toThrow(
      /unknown format/,
    );
    expect(patchTypeOf('application/merge-patch+json; charset=utf-8', false)).toBe('merge');
  });
});
