import { describe, expect, it } from 'vitest';
import { buildFunctionLibrary } from './function-library.js';

describe('buildFunctionLibrary', () => {
  const shared = 'local function twice(value) return value * 2 end';
  const scripts = { double: 'return twice(tonumber(ARGV[1]))', keyOf: 'return KEYS[1]' };

  it('puts the shared Lua once at the top and each script in a function of KEYS and ARGV', () => {
    const library = buildFunctionLibrary(scripts, shared);
    const lines = library.source.split('\n');
    expect(lines[0]).toBe(`#!lua name=${library.name}`);
    expect(lines[1]).toBe(shared);
    expect(library.source.split(shared)).toHaveLength(2);
    expect(library.source).toContain(
      `redis.register_function('${library.name}_double', function(KEYS, ARGV)\n` +
        `return twice(tonumber(ARGV[1]))\nend)`,
    );
    expect(library.functionNames).toEqual({
      double: `${library.name}_double`,
      keyOf: `${library.name}_keyOf`,
    });
  });

  it('names the library for its text: the same scripts give the same name, a change another', () => {
    const name = buildFunctionLibrary(scripts, shared).name;
    expect(name).toMatch(/^tollgate_[0-9a-f]{16}$/);
    expect(buildFunctionLibrary({ ...scripts }, shared).name).toBe(name);
    expect(buildFunctionLibrary({ ...scripts, keyOf: 'return KEYS[2]' }, shared).name).not.toBe(
      name,
    );
    expect(buildFunctionLibrary(scripts, `${shared}\n`).name).not.toBe(name);
  });

  it('refuses a script name Redis would not take as a function name', () => {
    expect(() => buildFunctionLibrary({ 'read-counters': 'return 1' }, shared)).toThrow(
      'not a Redis function name: read-counters',
    );
  });
});
