/**
 * `bin/tollgate.js` never runs a stale build: in a small project of its own (the real bin files,
 * a two-file source tree, the real node_modules for TypeScript), a changed, added or deleted
 * source makes the stamp check report stale and the next start rebuild before running.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuildState } from '../../../bin/ensure-fresh-build.js';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let project: string;

function write(path: string, text: string, ageSeconds = 0): void {
  writeFileSync(join(project, path), text);
  const when = new Date(Date.now() - ageSeconds * 1000);
  utimesSync(join(project, path), when, when);
}

/** An edit made now, after the last build. */
function touch(path: string): void {
  const now = new Date();
  utimesSync(join(project, path), now, now);
}

function runCli(): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(process.execPath, ['bin/tollgate.js'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'tollgate-build-'));
  mkdirSync(join(project, 'bin'));
  mkdirSync(join(project, 'src'));
  for (const file of ['tollgate.js', 'ensure-fresh-build.js']) {
    copyFileSync(join(repository, 'bin', file), join(project, 'bin', file));
  }
  symlinkSync(join(repository, 'node_modules'), join(project, 'node_modules'), 'dir');
  const compilerOptions = {
    target: 'ES2023',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    noEmit: true,
  };
  write('package.json', JSON.stringify({ type: 'module', private: true }), 3600);
  write('tsconfig.json', JSON.stringify({ compilerOptions }), 3600);
  write(
    'tsconfig.build.json',
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.' },
      include: ['bin', 'src'],
      exclude: ['node_modules', 'dist', '**/*.test.ts'],
    }),
    3600,
  );
  write(
    'bin/main.ts',
    "import { greeting } from '../src/greeting.js';\nprocess.stdout.write(`${greeting}\\n`);\n",
    3600,
  );
  write('src/greeting.ts', "export const greeting = 'first';\n", 3600);
  write('src/greeting.test.ts', "export const excluded = 'from the build';\n", 3600);
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe('the build stamp', () => {
  it('without a build: stale, and the first start builds', () => {
    expect(readBuildState(project)).toEqual({ kind: 'stale', reason: 'no build stamp' });
    const run = runCli();
    expect(run.stderr).toBe('tollgate: no build stamp; rebuilding dist/\n');
    expect(run.stdout).toBe('first\n');
    expect(readBuildState(project)).toEqual({ kind: 'fresh' });
    expect(runCli()).toEqual({ stdout: 'first\n', stderr: '', status: 0 });
  });

  it('a source edited after the build: stale, and the next start rebuilds and runs the edit', () => {
    write('src/greeting.ts', "export const greeting = 'edited';\n");
    expect(readBuildState(project)).toEqual({
      kind: 'stale',
      reason: 'sources changed since the last build',
    });
    const run = runCli();
    expect(run.stderr).toBe('tollgate: sources changed since the last build; rebuilding dist/\n');
    expect(run.stdout).toBe('edited\n');
    expect(readBuildState(project)).toEqual({ kind: 'fresh' });
  });

  it('a file the build excludes (a test) leaves the build fresh', () => {
    touch('src/greeting.test.ts');
    expect(readBuildState(project)).toEqual({ kind: 'fresh' });
    expect(runCli()).toEqual({ stdout: 'edited\n', stderr: '', status: 0 });
  });

  it('a build configuration edited after the build: stale', () => {
    touch('tsconfig.build.json');
    expect(readBuildState(project)).toMatchObject({ kind: 'stale' });
    expect(runCli().stderr).toContain('rebuilding dist/');
    expect(readBuildState(project)).toEqual({ kind: 'fresh' });
  });

  it('a source added with an old date, then deleted: stale each time; the rebuild drops its output', () => {
    const changedSet = {
      kind: 'stale',
      reason: 'sources were added, deleted or renamed since the last build',
    };
    write('src/extra.ts', "export const extra = 'old file copied in';\n", 3600);
    expect(readBuildState(project)).toEqual(changedSet);
    runCli();
    expect(existsSync(join(project, 'dist/src/extra.js'))).toBe(true);

    rmSync(join(project, 'src/extra.ts'));
    expect(readBuildState(project)).toEqual(changedSet);
    const run = runCli();
    expect(run.stderr).toContain('rebuilding dist/');
    expect(existsSync(join(project, 'dist/src/extra.js'))).toBe(false);
    expect(readBuildState(project)).toEqual({ kind: 'fresh' });
  });
});
