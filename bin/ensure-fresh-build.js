// @ts-check
/**
 * The build and its freshness: `bin/tollgate.js` runs only the compiled output in `dist/`, never a
 * stale one. In a checkout with sources (a `tsconfig.build.json` next to `package.json`) the build
 * stamp (`dist/build-stamp.json`) must be newer than every source the build compiles and name the
 * same set of sources; otherwise the build is stale and is redone when TypeScript is installed, or
 * refused with a message saying to run `npm run build`. A production tree (dist, package.json and
 * production dependencies, no sources) just runs what it has.
 *
 * Plain JavaScript because it runs before anything is compiled; types in the `.d.ts` next to it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';

const BUILD_CONFIG = 'tsconfig.build.json';
const STAMP = 'build-stamp.json';
const LOCK = '.build-lock';
/** Files outside the included folders that change what the build emits. */
const BUILD_INPUTS = ['tsconfig.json', BUILD_CONFIG, 'package.json'];
const SOURCE_EXTENSION = /\.(ts|mts|cts|tsx|json)$/;
const LOCK_WAIT_MS = 120_000;

/** `tsconfig.build.json`'s include, exclude and outDir (the file is plain JSON). */
function readBuildConfig(/** @type {string} */ root) {
  const path = join(root, BUILD_CONFIG);
  /** @type {{ include?: string[], exclude?: string[], compilerOptions?: { outDir?: string } }} */
  const config = JSON.parse(readFileSync(path, 'utf8'));
  return {
    include: config.include ?? ['.'],
    exclude: (config.exclude ?? []).map(globToRegExp),
    outDir: config.compilerOptions?.outDir ?? 'dist',
  };
}

/** A tsconfig glob (`**` any folders, `*` and `?` within one name) as a regular expression. */
function globToRegExp(/** @type {string} */ glob) {
  let pattern = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob.charAt(index);
    if (glob.startsWith('**/', index)) {
      pattern += '(?:.*/)?';
      index += 2;
    } else if (glob.startsWith('**', index)) {
      pattern += '.*';
      index += 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}(?:/.*)?$`);
}

/**
 * The sources the build compiles (relative paths, `/`-separated, sorted) with their newest
 * modification time: a stat walk of the included folders, without the excluded patterns.
 */
export function listBuildSources(/** @type {string} */ root) {
  const { include, exclude, outDir } = readBuildConfig(root);
  /** @type {string[]} */
  const files = [];
  let newestMs = 0;
  const excluded = (/** @type {string} */ path) =>
    path === outDir ||
    path.startsWith(`${outDir}.`) ||
    path.split('/').includes('node_modules') ||
    exclude.some((pattern) => pattern.test(path));
  const visit = (/** @type {string} */ path) => {
    if (excluded(path)) return;
    const absolute = join(root, path);
    const stats = statSync(absolute, { throwIfNoEntry: false });
    if (stats === undefined) return;
    if (stats.isDirectory()) {
      for (const name of readdirSync(absolute)) visit(path === '.' ? name : `${path}/${name}`);
    } else if (SOURCE_EXTENSION.test(path)) {
      files.push(path);
      newestMs = Math.max(newestMs, stats.mtimeMs);
    }
  };
  for (const entry of include) visit(entry.split(sep).join('/').replace(/\/$/, ''));
  for (const input of BUILD_INPUTS) {
    const stats = statSync(join(root, input), { throwIfNoEntry: false });
    if (stats !== undefined) newestMs = Math.max(newestMs, stats.mtimeMs);
  }
  files.sort();
  return { files, newestMs };
}

/**
 * Where the build stands: `no-sources` (a production tree), `fresh`, or `stale` with the reason.
 * @returns {{ kind: 'no-sources' | 'fresh' } | { kind: 'stale', reason: string }}
 */
export function readBuildState(/** @type {string} */ root) {
  if (!existsSync(join(root, BUILD_CONFIG))) return { kind: 'no-sources' };
  const stampPath = join(root, readBuildConfig(root).outDir, STAMP);
  const stampStats = statSync(stampPath, { throwIfNoEntry: false });
  if (stampStats === undefined) return { kind: 'stale', reason: 'no build stamp' };
  /** @type {{ sources?: string[] }} */
  const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
  const { files, newestMs } = listBuildSources(root);
  if (newestMs > stampStats.mtimeMs) {
    return { kind: 'stale', reason: 'sources changed since the last build' };
  }
  const built = stamp.sources ?? [];
  if (built.length !== files.length || built.some((file, index) => file !== files[index])) {
    return { kind: 'stale', reason: 'sources were added, deleted or renamed since the last build' };
  }
  return { kind: 'fresh' };
}

/** The TypeScript compiler's entry point when TypeScript is installed, undefined otherwise. */
export function findTypeScript(/** @type {string} */ root) {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

/**
 * Builds: compiles `tsconfig.build.json` into a new folder (type-checked unless `typeCheck` is
 * false: `tsc --noCheck` emits the same JavaScript), writes the stamp there, dated when the build
 * started (or as its newest source, if later) so that an edit made while it ran leaves the build
 * stale, and swaps the folder in for the output folder: files of deleted sources never linger, and
 * a process running the old build sees it whole until the swap. Holds the checkout's build lock.
 * Compiler messages go to stderr. Throws when the compiler fails, leaving the old build in place.
 * @param {string} root
 * @param {{ typeCheck?: boolean }} [options]
 */
export function buildDist(root, options = {}) {
  withBuildLock(root, () => compile(root, options));
}

function compile(/** @type {string} */ root, /** @type {{ typeCheck?: boolean }} */ options) {
  const tsc = findTypeScript(root);
  if (tsc === undefined) throw new Error('TypeScript is not installed; run npm ci');
  const { files, newestMs } = listBuildSources(root);
  // A source dated in the future (clock skew) would otherwise leave every build stale.
  const startedAt = new Date(Math.max(Date.now(), newestMs));
  const outDir = join(root, readBuildConfig(root).outDir);
  const next = `${outDir}.next-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const args = [tsc, '-p', BUILD_CONFIG, '--outDir', next];
  if (options.typeCheck === false) args.push('--noCheck');
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(`the build failed (tsc exited with ${result.status ?? result.signal})`);
  }
  const stampPath = join(next, STAMP);
  const stamp = { builtAt: startedAt.toISOString(), typeChecked: options.typeCheck !== false };
  writeFileSync(stampPath, `${JSON.stringify({ ...stamp, sources: files }, null, 2)}\n`);
  utimesSync(stampPath, startedAt, startedAt);
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(next, outDir);
  rmSync(old, { recursive: true, force: true });
}

function sleep(/** @type {number} */ ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `work` holding the checkout's build lock, so that concurrent starts build once. */
function withBuildLock(/** @type {string} */ root, /** @type {() => void} */ work) {
  const lock = join(root, LOCK);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const held = statSync(lock, { throwIfNoEntry: false });
      // A lock older than the longest wait was left by a build that died: take it over.
      if (held !== undefined && Date.now() - held.mtimeMs > LOCK_WAIT_MS) {
        rmSync(lock, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`another build holds ${lock}; remove it if no build is running`);
      } else sleep(100);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes sure `dist/` holds a build that is not older than the sources: nothing to do in a
 * production tree or when fresh; when stale, rebuilds (without the type check, like running the
 * sources did; `log` gets one line first) if TypeScript is installed, and throws a message saying
 * to run `npm run build` otherwise. Also throws when there is no compiled CLI at all.
 * @param {string} root
 * @param {{ log?: (line: string) => void }} [options]
 */
export function ensureFreshBuild(root, options = {}) {
  const state = readBuildState(root);
  if (state.kind === 'stale') {
    if (findTypeScript(root) === undefined) {
      throw new Error(
        `dist/ is stale (${state.reason}) and TypeScript is not installed; run npm run build`,
      );
    }
    withBuildLock(root, () => {
      // Another process may have built while this one waited for the lock.
      const again = readBuildState(root);
      if (again.kind !== 'stale') return;
      options.log?.(`${again.reason}; rebuilding dist/`);
      compile(root, { typeCheck: false });
    });
  }
  if (!existsSync(join(root, 'dist', 'bin', 'main.js'))) {
    throw new Error('no compiled CLI at dist/bin/main.js; run npm run build');
  }
}
