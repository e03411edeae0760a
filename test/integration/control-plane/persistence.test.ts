/** The data folder: objects, resourceVersions, the token and the kubeconfig survive a restart. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { Plane } from './control-plane-harness.js';
import { apiRequest, startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane();
});
afterAll(async () => {
  await plane.stop();
});

interface Meta {
  uid: string;
  resourceVersion: string;
}

describe('persistence', () => {
  it('keeps objects and resourceVersions across a restart on the same folder', async () => {
    await plane.ok(['apply', '-f', 'examples/']);
    await plane.ok(['delete', 'ak', 'ci', '-n', 'team-a']);
    const before = JSON.parse(await plane.ok(['get', 'ak', '-n', 'team-a', '-o', 'json'])) as {
      items: { metadata: Meta }[];
    };
    const list = await apiRequest(plane.local, { method: 'GET', path: '/api/v1/namespaces' });
    const lastVersion = Number((list.body.metadata as { resourceVersion: string }).resourceVersion);
    const token = plane.local.token;

    await plane.restart();

    expect(plane.local.token).toBe(token);
    const kubeconfig = parse(readFileSync(join(plane.dataDirectory, 'kubeconfig'), 'utf8')) as {
      clusters: { cluster: { server: string } }[];
    };
    expect(kubeconfig.clusters[0]?.cluster.server).toBe(plane.local.apiUrl);
    const after = JSON.parse(await plane.ok(['get', 'ak', '-n', 'team-a', '-o', 'json'])) as {
      items: { metadata: Meta }[];
    };
    expect(after.items.map((item) => item.metadata)).toEqual(
      before.items.map((item) => item.metadata),
    );
    expect(after.items.map((item) => (item.metadata as unknown as { name: string }).name)).toEqual([
      'alice',
      'bob',
      'ide',
      'paused',
    ]);
    const again = await plane.ok(['apply', '-f', 'examples/']);
    expect(again).toContain('apikey.tollgate.dev/ci created');
    const created = await apiRequest(plane.local, {
      method: 'GET',
      path: '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys/ci',
    });
    expect(Number((created.body.metadata as Meta).resourceVersion)).toBeGreaterThan(lastVersion);
  });
});
