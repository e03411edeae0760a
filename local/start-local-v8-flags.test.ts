import { describe, expect, it } from 'vitest';
import { applyLocalV8Flags, LOCAL_V8_FLAGS } from './start-local-v8-flags.js';

describe('applyLocalV8Flags', () => {
  it('compiles WebAssembly with the baseline compiler only', () => {
    expect(LOCAL_V8_FLAGS).toEqual(['--liftoff-only']);
    expect(applyLocalV8Flags({})).toEqual(['--liftoff-only']);
  });

  it('keeps V8 defaults with TOLLGATE_LOCAL_V8_DEFAULTS=true', () => {
    expect(applyLocalV8Flags({ TOLLGATE_LOCAL_V8_DEFAULTS: 'true' })).toEqual([]);
  });
});
