import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsNoObjects, takeDemoFlag } from './start-demo-world.js';

describe('takeDemoFlag', () => {
  const table: { args: string[]; env: string | undefined; enabled: boolean }[] = [
    { args: ['--port', '0'], env: undefined, enabled: true },
    { args: ['--no-demo', '--port', '0'], env: undefined, enabled: false },
    { args: ['--demo'], env: 'false', enabled: true },
    { args: [], env: 'false', enabled: false },
    { args: [], env: '0', enabled: false },
    { args: [], env: '', enabled: true },
  ];
  it.each(table)('$args with TOLLGATE_DEMO=$env', ({ args, env, enabled }) => {
    const taken = takeDemoFlag(args, { TOLLGATE_DEMO: env });
    expect(taken.enabled).toBe(enabled);
    expect(taken.rest).toEqual(args.filter((arg) => arg !== '--demo' && arg !== '--no-demo'));
  });
});

describe('holdsNoObjects', () => {
  it('is true for a missing or empty objects folder, false once one object is persisted', () => {
    const data = mkdtempSync(join(tmpdir(), 'tollgate-demo-flag-'));
    try {
      expect(holdsNoObjects(data)).toBe(true);
      mkdirSync(join(data, 'objects'));
      expect(holdsNoObjects(data)).toBe(true);
      writeFileSync(join(data, 'objects', 'namespace.json'), '{}');
      expect(holdsNoObjects(data)).toBe(false);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
