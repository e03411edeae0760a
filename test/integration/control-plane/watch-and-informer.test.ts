/** Watches: `kubectl get -w`, raw watch streams (bookmarks, 410), and a client-node informer. */
import { spawn } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import { CustomObjectsApi, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Plane } from './control-plane-harness.js';
import { apiRequest, startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

const group = 'tollgate.dev';
const version = 'v1alpha1';
const keyPath = (namespace: string) => `/apis/${group}/${version}/namespaces/${namespace}/apikeys`;
const apiKey = (name: string) => ({
  apiVersion: `${group}/${version}`,
  kind: 'ApiKey',
  metadata: { name },
  spec: { displayName: name },
});

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads watch lines from a raw stream for up to `ms`, then aborts. */
function readWatch(
  plane: Plane,
  path: string,
  ms: number,
): Promise<{ type: string; object: Record<string, unknown> }[]> {
  return new Promise((resolve, reject) => {
    const lines: { type: string; object: Record<string, unknown> }[] = [];
    let buffered = '';
    const request = httpsRequest(new URL(path, plane.local.apiUrl), {
      headers: { authorization: `Bearer ${plane.local.token}` },
      ca: plane.local.certificateAuthority,
    });
    const timer = setTimeout(() => request.destroy(), ms);
    request.on('response', (response) => {
      response.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        for (const part of parts)
          lines.push(JSON.parse(part) as { type: string; object: Record<string, unknown> });
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve(lines);
      });
      response.on('error', () => {
        resolve(lines);
      });
    });
    request.on('error', (error) => {
      if (lines.length > 0 || error.message === 'socket hang up') resolve(lines);
      else reject(error);
    });
    request.end();
  });
}

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane({ watchWindow: 3, watchTimeoutMs: 1_000, bookmarkIntervalMs: 200 });
  for (const namespace of ['watched', 'busy']) {
    await apiRequest(plane.local, {
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    });
  }
});
afterAll(async () => {
  await plane.stop();
});

describe('watch', () => {
  it('kubectl get ak -w prints the change', async () => {
    // Its own plane: the shared one ends watches after 1 s, which would also end `kubectl get -w`.
    const own = await startPlane();
    await apiRequest(own.local, {
      method: 'POST',
      path: keyPath('default'),
      body: apiKey('watched-by-kubectl'),
    });
    const cache = join(own.dataDirectory, 'kubectl-cache');
    const child = spawn(
      'kubectl',
      ['--kubeconfig', own.local.kubeconfigPath, '--cache-dir', cache, 'get', 'ak', '-w'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killer = setTimeout(() => child.kill(), 15_000);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      await until(() => output.includes('watched-by-kubectl'), 'the initial listing');
      await own.ok([
        'patch',
        'ak',
        'watched-by-kubectl',
        '--type',
        'merge',
        '-p',
        '{"spec":{"groupName":"after-change"}}',
      ]);
      await until(() => output.includes('after-change'), 'the change to be printed');
      const lines = output.trim().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+DISPLAY NAME\s+GROUP/);
      expect(lines.at(-1)).toMatch(/^watched-by-kubectl\s+watched-by-kubectl\s+after-change\s/);
    } finally {
      clearTimeout(killer);
      child.kill();
      await own.stop();
    }
  });

  it('streams bookmarks and answers a too-old resourceVersion with 410 Gone', async () => {
    const events = await readWatch(
      plane,
      `${keyPath('busy')}?watch=true&allowWatchBookmarks=true`,
      600,
    );
    expect(events.some((event) => event.type === 'BOOKMARK')).toBe(true);
    for (let index = 0; index < 5; index += 1) {
      await apiRequest(plane.local, {
        method: 'POST',
        path: keyPath('busy'),
        body: apiKey(`filler-${index}`),
      });
    }
    const expired = await readWatch(
      plane,
      `${keyPath('busy')}?watch=true&resourceVersion=1`,
      2_000,
    );
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
    const list = await apiRequest(plane.local, { method: 'GET', path: keyPath('busy') });
    const rv = (list.body.metadata as { resourceVersion: string }).resourceVersion;
    const resumed = readWatch(plane, `${keyPath('busy')}?watch=true&resourceVersion=${rv}`, 800);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await apiRequest(plane.local, { method: 'DELETE', path: `${keyPath('busy')}/filler-0` });
    const after = await resumed;
    expect(
      after.map((event) => [event.type, (event.object.metadata as { name: string }).name]),
    ).toEqual([['DELETED', 'filler-0']]);
  });
});

describe('informer', () => {
  it('lists and watches, and after a forced 410 relists and still sees the objects', async () => {
    const config = new KubeConfig();
    config.loadFromFile(plane.local.kubeconfigPath);
    const api = config.makeApiClient(CustomObjectsApi);
    let lists = 0;
    const listFn = async (): Promise<KubernetesListObject<KubernetesObject>> => {
      lists += 1;
      return (await api.listNamespacedCustomObject({
        group,
        version,
        namespace: 'watched',
        plural: 'apikeys',
      })) as KubernetesListObject<KubernetesObject>;
    };
    await apiRequest(plane.local, {
      method: 'POST',
      path: keyPath('watched'),
      body: apiKey('before'),
    });
    const informer = makeInformer(config, keyPath('watched'), listFn);
    const added: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (object) => added.push(object.metadata?.name ?? ''));
    informer.on('error', (error) => errors.push(error));
    await informer.start();
    try {
      await until(() => added.includes('before'), 'the listed object');
      await apiRequest(plane.local, {
        method: 'POST',
        path: keyPath('watched'),
        body: apiKey('during'),
      });
      await until(() => added.includes('during'), 'the watched object');
      // Changes elsewhere push the retained window past the informer's resourceVersion; its
      // watch ends after 1 s (watchTimeoutMs), resumes from that version, gets 410 and relists.
      for (let index = 0; index < 5; index += 1) {
        await apiRequest(plane.local, {
          method: 'POST',
          path: keyPath('busy'),
          body: apiKey(`push-${index}`),
        });
      }
      await until(() => lists >= 2, 'a relist after 410', 15_000);
      await apiRequest(plane.local, {
        method: 'POST',
        path: keyPath('watched'),
        body: apiKey('after'),
      });
      await until(() => added.includes('after'), 'an object created after the relist');
      expect(
        informer
          .list('watched')
          .map((object) => object.metadata?.name)
          .sort(),
      ).toEqual(['after', 'before', 'during']);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
