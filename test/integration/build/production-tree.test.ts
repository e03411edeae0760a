/**
 * A production tree: dist/ (the build the global setup made fresh), bin/, package.json and only the
 * production dependencies (no TypeScript, no tsx), as an image installs them. `tollgate simulate`
 * runs from it; sources newer than the build make it refuse instead; the `prepare` script skips.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let tree: string;

/** node_modules with a link to each production dependency the repository's npm resolves. */
function linkProductionDependencies(): string[] {
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: repository,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const topLevel = join(repository, 'node_modules') + sep;
  const names = new Set<string>();
  for (const path of listed.split('\n')) {
    if (!path.startsWith(topLevel)) continue;
    const parts = relative(topLevel, path).split(sep);
    // Nested node_modules come along inside their package's folder.
    const name = parts[0]?.startsWith('@') === true ? `${parts[0]}/${parts[1]}` : parts[0];
    if (name !== undefined && !name.includes('node_modules')) names.add(name);
  }
  for (const name of names) {
    const link = join(tree, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(topLevel, name), link, 'dir');
  }
  return [...names];
}

function runIn(args: readonly string[]): { stderr: string; status: number | null } {
  const result = spawnSync(process.execPath, args, {
    cwd: tree,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { stderr: result.stderr, status: result.status };
}

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'tollgate-production-'));
  cpSync(join(repository, 'dist'), join(tree, 'dist'), { recursive: true });
  mkdirSync(join(tree, 'bin'));
  for (const file of ['tollgate.js', 'ensure-fresh-build.js', 'build-dist.js']) {
    copyFileSync(join(repository, 'bin', file), join(tree, 'bin', file));
  }
  copyFileSync(join(repository, 'package.json'), join(tree, 'package.json'));
  const names = linkProductionDependencies();
  expect(names).toContain('fastify');
  expect(names).not.toContain('tsx');
  expect(names).not.toContain('typescript');
}, 60_000);

afterAll(() => {
  rmSync(tree, { recursive: true, force: true });
});

describe('a tree with only dist/ and production dependencies', () => {
  it('runs tollgate simulate from dist/ and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/tollgate.js', 'simulate', '--port', '0'], {
      cwd: tree,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        output += text;
      });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (text: string) => {
          output += text;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', () => {
          reject(new Error(`exited early: ${output}`));
        });
      });
      const response = await request(`${url}/v1/models`, {
        headers: { authorization: 'Bearer any-upstream-secret' },
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toMatchObject({ object: 'list' });
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect((await exited)[0]).toBe(0);
      expect(output).not.toContain('rebuilding');
    } finally {
      clearTimeout(killer);
    }
  });

  it('the prepare script (npm ci --omit=dev) skips the build with one line', () => {
    const run = runIn(['bin/build-dist.js', '--prepare']);
    expect(run).toEqual({
      status: 0,
      stderr: 'tollgate build: no sources here; nothing to build\n',
    });
  });

  it('with sources newer than the build and no TypeScript: refuses, saying to build', () => {
    mkdirSync(join(tree, 'src'));
    writeFileSync(join(tree, 'src', 'edited.ts'), 'export const edited = true;\n');
    const config = { compilerOptions: { outDir: 'dist' }, include: ['src'] };
    writeFileSync(join(tree, 'tsconfig.build.json'), JSON.stringify(config));
    try {
      const run = runIn(['bin/tollgate.js', 'simulate', '--port', '0']);
      expect(run).toEqual({
        status: 1,
        stderr:
          'tollgate: dist/ is stale (sources changed since the last build) and TypeScript is ' +
          'not installed; run npm run build\n',
      });
      expect(runIn(['bin/build-dist.js', '--prepare'])).toEqual({
        status: 0,
        stderr: 'tollgate build: TypeScript is not installed; skipping the build\n',
      });
      expect(existsSync(join(tree, 'dist', 'bin', 'main.js'))).toBe(true);
    } finally {
      rmSync(join(tree, 'src'), { recursive: true, force: true });
      rmSync(join(tree, 'tsconfig.build.json'), { force: true });
    }
  });
});
