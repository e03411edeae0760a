/**
 * The container image's contents, without a Docker engine: this test reads the Dockerfile, checks
 * what the runtime stage declares (numeric non-root user, entrypoint, OCI labels, no HEALTHCHECK),
 * and assembles the runtime stage's files exactly as its COPY lines say: files from the build
 * context, the deps stage's node_modules (its own `npm ci` command, run here on the same lock file)
 * and the build stage's outputs (this checkout's fresh dist/ and built web app). Then it starts each
 * cluster subcommand from that tree, as the chart runs it, and sees it ready: the gateway (Redis,
 * /readyz), the operator (leader on the local control plane, reconciling a key), the console
 * (listening, serving the built web app) and the recorder (Redis and PostgreSQL, /healthz), each
 * stopping with status 0 on SIGTERM. Nothing in the tree changes while they run (the image runs
 * with a read-only root filesystem).
 */
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { freePort } from '../../support/redis-server.js';
import { createTestDatabase } from '../../support/ledger/ledger-test-databases.js';
import { readDockerfile, readExecForm, readLabels, type DockerStage } from './read-dockerfile.js';
import { startTollgateProcess } from './run-tollgate-process.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const stages = readDockerfile(readFileSync(join(repository, 'Dockerfile'), 'utf8'));
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-image-'));
const tree = join(scratch, 'app');
const secrets = join(scratch, 'secrets');
let treeBefore: string[] = [];

function stage(name: string): DockerStage {
  const found = stages.get(name);
  if (found === undefined) throw new Error(`the Dockerfile has no stage '${name}'`);
  return found;
}

/** A path inside a stage's file system, relative to its WORKDIR. */
function insideWorkdir(from: DockerStage, path: string): string {
  const absolute = posix.resolve(from.workdir, path);
  if (absolute === posix.resolve(from.workdir)) return '.';
  const prefix = from.workdir.endsWith('/') ? from.workdir : `${from.workdir}/`;
  if (!absolute.startsWith(prefix)) throw new Error(`${path} is outside ${from.workdir}`);
  return absolute.slice(prefix.length);
}

/** Copies one COPY line's sources from `root` into `target` (the destination resolved). */
function copyInto(copy: { sources: string[]; destination: string }, root: string, target: string) {
  const toDirectory = copy.destination.endsWith('/') || copy.sources.length > 1;
  for (const source of copy.sources) {
    const from = join(root, source);
    if (!existsSync(from)) throw new Error(`COPY source ${source} is missing from ${root}`);
    const to = toDirectory && statSync(from).isFile() ? join(target, basename(source)) : target;
    mkdirSync(toDirectory ? target : join(to, '..'), { recursive: true });
    cpSync(from, to, { recursive: true });
  }
}

/** The deps stage run here: its context files in a folder, then its RUN commands there. */
function buildDepsStage(): string {
  const deps = stage('deps');
  const folder = join(scratch, 'deps');
  mkdirSync(folder);
  for (const copy of deps.copies) {
    if (copy.from !== undefined) throw new Error('the deps stage copies only from the context');
    copyInto(copy, repository, join(folder, insideWorkdir(deps, copy.destination)));
  }
  for (const command of deps.runs) {
    execSync(command, { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'], timeout: 150_000 });
  }
  return folder;
}

/** The build stage's outputs are this checkout's (built by the global setup and `npm ci`). */
function buildStageRoot(): string {
  const web = join(repository, 'console', 'web', 'dist', 'index.html');
  if (!existsSync(web)) throw new Error('console/web/dist is not built; run npm run build');
  return repository;
}

function listTree(root: string, path = ''): string[] {
  const entries: string[] = [];
  for (const name of readdirSync(join(root, path)).sort()) {
    const relative = path === '' ? name : `${path}/${name}`;
    const stats = statSync(join(root, relative));
    entries.push(`${relative} ${stats.size} ${stats.mtimeMs}`);
    if (stats.isDirectory() && name !== 'node_modules') entries.push(...listTree(root, relative));
  }
  return entries;
}

function assembleRuntimeTree(): void {
  const runtime = stage('runtime');
  const roots: Record<string, () => string> = { deps: buildDepsStage, build: buildStageRoot };
  for (const copy of runtime.copies) {
    const target = join(tree, insideWorkdir(runtime, copy.destination));
    if (copy.from === undefined) {
      copyInto(copy, repository, target);
      continue;
    }
    const from = stage(copy.from);
    const root = roots[copy.from]?.();
    if (root === undefined) throw new Error(`no model of stage ${copy.from}`);
    const sources = copy.sources.map((source) => insideWorkdir(from, source));
    copyInto({ sources, destination: copy.destination }, root, target);
  }
}

/** The environment a pod gets: the image's ENV lines, nothing of this machine's but PATH. */
function imageEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const { keyword, argument } of stage('runtime').instructions) {
    if (keyword !== 'ENV') continue;
    for (const match of argument.matchAll(/(\w+)=(\S+)/g)) {
      environment[match[1] ?? ''] = match[2] ?? '';
    }
  }
  return environment;
}

async function httpGet(url: string): Promise<{ status: number; text: string }> {
  const response = await request(url, { headersTimeout: 5_000, bodyTimeout: 5_000 });
  return { status: response.statusCode, text: await response.body.text() };
}

let plane: Plane | undefined;

beforeAll(async () => {
  assembleRuntimeTree();
  treeBefore = listTree(tree);
  mkdirSync(secrets);
  writeFileSync(join(secrets, 'pepper'), randomBytes(32));
  writeFileSync(join(secrets, 'credential-key'), randomBytes(32).toString('base64'));
  plane = await startPlane();
});

function controlPlane(): Plane {
  if (plane === undefined) throw new Error('the control plane did not start');
  return plane;
}

afterAll(async () => {
  await plane?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it('runs as a numeric non-root user, has no HEALTHCHECK, and runs bin/tollgate.js', () => {
    const runtime = stage('runtime');
    const keywords = [...stages.values()].flatMap((each) =>
      each.instructions.map((line) => line.keyword),
    );
    expect(keywords).not.toContain('HEALTHCHECK');
    const user = runtime.instructions.filter((line) => line.keyword === 'USER').at(-1)?.argument;
    expect(user).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
    const entrypoint = runtime.instructions.find((line) => line.keyword === 'ENTRYPOINT');
    expect(readExecForm(entrypoint?.argument ?? 'null')).toEqual(['node', 'bin/tollgate.js']);
    expect(runtime.workdir).toBe('/app');
  });

  it('carries the OCI labels', () => {
    const labels = readLabels(stage('runtime'));
    for (const name of ['title', 'description', 'licenses', 'source', 'version', 'revision']) {
      expect(labels.get(`org.opencontainers.image.${name}`), name).toBeTruthy();
    }
    expect(labels.get('org.opencontainers.image.licenses')).toBe(
      (JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as { license: string })
        .license,
    );
  });

  it('keeps every input of npm run build in the build context (.dockerignore)', () => {
    const ignored = readFileSync(join(repository, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const pattern = (entry: string) =>
      new RegExp(`^${entry.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}(/.*)?$`);
    const build = JSON.parse(readFileSync(join(repository, 'tsconfig.build.json'), 'utf8')) as {
      include: string[];
    };
    const inputs = [
      ...build.include,
      'console/web/src',
      'console/web/index.html',
      'console/web/vite.config.ts',
      'console/web/build-web.js',
      'bin/build-dist.js',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ];
    for (const input of inputs) {
      expect(existsSync(join(repository, input)), input).toBe(true);
      expect(
        ignored.filter((entry) => pattern(entry).test(input)),
        input,
      ).toEqual([]);
    }
  });

  it('installs production dependencies only, without install scripts, in both stages', () => {
    expect(stage('deps').runs).toEqual([
      expect.stringMatching(/^npm ci --omit=dev --ignore-scripts/),
    ]);
    expect(stage('build').runs).toContain('npm run build');
  });
});

describe('the runtime tree', () => {
  it('holds the compiled CLI, the web app and production dependencies only, no sources', () => {
    expect(readdirSync(tree).sort()).toEqual([
      'bin',
      'console',
      'dist',
      'node_modules',
      'package.json',
    ]);
    expect(readdirSync(join(tree, 'bin')).sort()).toEqual(['ensure-fresh-build.js', 'tollgate.js']);
    expect(existsSync(join(tree, 'dist', 'bin', 'main.js'))).toBe(true);
    expect(existsSync(join(tree, 'console', 'web', 'dist', 'index.html'))).toBe(true);
    const modules = readdirSync(join(tree, 'node_modules'));
    expect(modules).toContain('fastify');
    for (const development of ['typescript', 'tsx', 'vite', 'vitest', 'eslint', 'react']) {
      expect(modules).not.toContain(development);
    }
    const sources = listTree(tree).filter(
      (entry) => /\.tsx? /.test(entry) && !/\.d\.ts /.test(entry),
    );
    expect(sources).toEqual([]);
  });

  it('gateway: ready on the store, metrics served, drains and exits 0 on SIGTERM', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const gateway = startTollgateProcess({
      cwd: tree,
      args: ['gateway', '--host', '127.0.0.1', '--port', String(port)],
      environment: {
        ...imageEnvironment(),
        REDIS_URL: inject('redisUrl'),
        TOLLGATE_REDIS_PREFIX: `it-image-${randomBytes(4).toString('hex')}:`,
        TOLLGATE_PEPPER_FILE: join(secrets, 'pepper'),
        TOLLGATE_CREDENTIAL_KEY_FILE: join(secrets, 'credential-key'),
        TOLLGATE_METRICS_HOST: '127.0.0.1',
        TOLLGATE_METRICS_PORT: String(metricsPort),
      },
    });
    const ready = await gateway.waitFor('/readyz', async () => {
      const answer = await httpGet(`http://127.0.0.1:${port}/readyz`);
      return answer.status === 200 ? answer.text : undefined;
    });
    expect(JSON.parse(ready)).toEqual({ status: 'ready' });
    const metrics = await httpGet(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.text).toContain('tollgate_');
    expect(await gateway.stop()).toBe(0);
    expect(gateway.output()).not.toContain('rebuilding');
  });

  it('operator: leads on the control plane and reconciles a key; exits 0 on SIGTERM', async () => {
    const metricsPort = await freePort();
    const operator = startTollgateProcess({
      cwd: tree,
      args: ['operator', '--kubeconfig', controlPlane().local.kubeconfigPath],
      environment: {
        ...imageEnvironment(),
        REDIS_URL: inject('redisUrl'),
        TOLLGATE_REDIS_PREFIX: `it-image-${randomBytes(4).toString('hex')}:`,
        TOLLGATE_PEPPER_FILE: join(secrets, 'pepper'),
        TOLLGATE_CREDENTIAL_KEY_FILE: join(secrets, 'credential-key'),
        TOLLGATE_METRICS_HOST: '127.0.0.1',
        TOLLGATE_METRICS_PORT: String(metricsPort),
      },
    });
    await operator.waitFor('leadership', async () => {
      const metrics = await httpGet(`http://127.0.0.1:${metricsPort}/metrics`);
      return /^tollgate_operator_leader 1$/m.test(metrics.text) ? true : undefined;
    });
    await controlPlane().ok(
      ['apply', '-f', '-'],
      'apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata: { name: image-key, namespace: default }\nspec: { displayName: image }\n',
    );
    await operator.waitFor('the key Secret', async () => {
      const result = await controlPlane().kubectl([
        'get',
        'secret',
        'image-key-key',
        '-n',
        'default',
      ]);
      return result.code === 0 ? true : undefined;
    });
    expect(await operator.stop()).toBe(0);
  });

  it('console: listens, serves the built web app and the API; exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const consoleProcess = startTollgateProcess({
      cwd: tree,
      args: ['console', '--kubeconfig', controlPlane().local.kubeconfigPath, '--host', '127.0.0.1'],
      environment: { ...imageEnvironment(), TOLLGATE_CONSOLE_PORT: String(port) },
    });
    await consoleProcess.waitFor('the listening line', () =>
      consoleProcess.output().includes('Server listening at') ? true : undefined,
    );
    const page = await httpGet(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.text).toBe(
      readFileSync(join(tree, 'console', 'web', 'dist', 'index.html'), 'utf8'),
    );
    const methods = await httpGet(`http://127.0.0.1:${port}/api/v1/auth/methods`);
    expect(methods.status).toBe(200);
    expect(await consoleProcess.stop()).toBe(0);
  });

  it('recorder: migrates the ledger, serves /healthz and metrics; exits 0 on SIGTERM', async () => {
    const database = await createTestDatabase();
    try {
      const metricsPort = await freePort();
      const recorder = startTollgateProcess({
        cwd: tree,
        args: ['recorder', '--consumer', 'image-test'],
        environment: {
          ...imageEnvironment(),
          REDIS_URL: inject('redisUrl'),
          TOLLGATE_REDIS_PREFIX: `it-image-${randomBytes(4).toString('hex')}:`,
          TOLLGATE_DATABASE_URL: database.databaseUrl,
          TOLLGATE_METRICS_HOST: '127.0.0.1',
          TOLLGATE_METRICS_PORT: String(metricsPort),
        },
      });
      await recorder.waitFor('/healthz', async () => {
        const answer = await httpGet(`http://127.0.0.1:${metricsPort}/healthz`);
        return answer.status === 200 ? true : undefined;
      });
      const metrics = await httpGet(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.text).toContain('tollgate_recorder_');
      expect(await recorder.stop()).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('nothing in the tree was written while the commands ran', () => {
    expect(listTree(tree)).toEqual(treeBefore);
  });
});
