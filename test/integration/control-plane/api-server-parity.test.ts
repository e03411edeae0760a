/**
 * Where a real API server is strict, the local control plane is too, and where kubectl needs more
 * than the resource verbs (OpenAPI v2 for `v1 List` files, omitted empty metadata for `kubectl
 * diff`), it gets it: GitOps exports, backups and drift detection behave as against a cluster.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Plane } from './control-plane-harness.js';
import { startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane();
});
afterAll(async () => {
  await plane.stop();
});

const apiKey = (name: string, displayName: string): string =>
  `apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata: {name: ${name}, namespace: default}\nspec: {displayName: ${displayName}}\n`;

describe('GitOps drift detection', () => {
  it('shows no difference in kubectl diff right after kubectl apply --server-side', async () => {
    expect(await plane.ok(['apply', '--server-side', '-f', 'examples/'])).toContain(
      'apikey.tollgate.dev/alice serverside-applied',
    );
    const diff = await plane.kubectl(['diff', '-f', 'examples/']);
    expect(diff.stdout).toBe('');
    expect(diff.code).toBe(0);
  });

  it('reports an unchanged Group whose upstreamRefs leave weight and priority out', async () => {
    const group = [
      'apiVersion: tollgate.dev/v1alpha1',
      'kind: Group',
      'metadata: {name: implicit-weights}',
      'spec:',
      '  platform: Gemini',
      '  upstreamRefs: [{name: gemini-sim}, {name: other-sim, priority: 1}]',
      '',
    ].join('\n');
    expect(await plane.ok(['apply', '-f', '-'], group)).toBe(
      'group.tollgate.dev/implicit-weights created\n',
    );
    expect(await plane.ok(['apply', '-f', '-'], group)).toBe(
      'group.tollgate.dev/implicit-weights unchanged\n',
    );
    const diff = await plane.kubectl(['diff', '-f', '-'], group);
    expect(diff.code).toBe(0);
    const stored = parse(await plane.ok(['get', 'tgg', 'implicit-weights', '-o', 'yaml'])) as {
      spec: { rateMultiplier: number; upstreamRefs: object[] };
    };
    expect(stored.spec.rateMultiplier).toBe(1);
    expect(stored.spec.upstreamRefs).toEqual([
      { name: 'gemini-sim' },
      { name: 'other-sim', priority: 1 },
    ]);
  });
});

describe('a v1 List, as kubectl get -o yaml writes it', () => {
  it('applies back (kubectl validates the items against /openapi/v2)', async () => {
    const exported = await plane.ok([
      'get',
      'apikeys,groups,upstreams,accounts,secrets,namespaces',
      '-A',
      '-o',
      'yaml',
    ]);
    expect(exported).toMatch(/^apiVersion: v1\nitems:/);
    const file = join(plane.dataDirectory, 'backup.yaml');
    writeFileSync(file, exported);
    const applied = await plane.kubectl(['apply', '-f', file]);
    expect(applied.stderr).not.toContain('error');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('apikey.tollgate.dev/alice configured');
    expect(applied.stdout).toContain('secret/anthropic-credentials configured');
  });

  it('is checked item by item on the client, like against a cluster', async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [parse(apiKey('listed', 'from-a-list')) as Record<string, unknown>],
    };
    const good = join(plane.dataDirectory, 'good-list.yaml');
    writeFileSync(good, stringify(list));
    expect(await plane.ok(['apply', '-f', good])).toBe('apikey.tollgate.dev/listed created\n');
    const item = list.items[0] as { spec: Record<string, unknown> };
    item.spec.surprise = true;
    const bad = join(plane.dataDirectory, 'bad-list.yaml');
    writeFileSync(bad, stringify(list));
    const refused = await plane.kubectl(['apply', '-f', bad]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('unknown field "surprise"');
  });
});

describe('updates', () => {
  it('refuses an update of a custom resource without metadata.resourceVersion', async () => {
    await plane.ok(['apply', '-f', '-'], apiKey('replaced', 'first'));
    const path = '/apis/tollgate.dev/v1alpha1/namespaces/default/apikeys/replaced';
    const plain = parse(apiKey('replaced', 'second')) as { metadata: Record<string, string> };
    const unversioned = await plane.kubectl(
      ['replace', '--raw', path, '-f', '-'],
      JSON.stringify(plain),
    );
    expect(unversioned.code).not.toBe(0);
    expect(unversioned.stderr).toContain(
      'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    const current = parse(await plane.ok(['get', 'ak', 'replaced', '-o', 'yaml'])) as {
      metadata: { resourceVersion: string };
    };
    plain.metadata.resourceVersion = current.metadata.resourceVersion;
    const versioned = await plane.ok(['replace', '--raw', path, '-f', '-'], JSON.stringify(plain));
    expect(JSON.parse(versioned)).toMatchObject({ spec: { displayName: 'second' } });
    // kubectl replace itself reads the current resourceVersion when the file has none.
    expect(await plane.ok(['replace', '-f', '-'], apiKey('replaced', 'third'))).toBe(
      'apikey.tollgate.dev/replaced replaced\n',
    );
    // Core kinds allow unconditional updates, as in a cluster.
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'plain' }, data: {} };
    await plane.ok(['create', '-f', '-'], JSON.stringify(secret));
    const replacedSecret = await plane.ok(
      ['replace', '--raw', '/api/v1/namespaces/default/secrets/plain', '-f', '-'],
      JSON.stringify({ ...secret, type: 'Opaque', data: { a: 'Yg==' } }),
    );
    expect(JSON.parse(replacedSecret)).toMatchObject({ data: { a: 'Yg==' } });
  });

  it('caps the annotations of one object at 256 KiB in total', async () => {
    await plane.ok(['apply', '-f', '-'], apiKey('annotated', 'a'));
    const value = 'v'.repeat(100_000);
    await plane.ok(['annotate', 'ak', 'annotated', `one=${value}`, `two=${value}`]);
    const refused = await plane.kubectl(['annotate', 'ak', 'annotated', `three=${value}`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    );
    const kept = await plane.ok([
      'get',
      'ak',
      'annotated',
      '-o',
      'jsonpath={.metadata.annotations}',
    ]);
    const names = Object.keys(JSON.parse(kept) as object);
    expect(names).toEqual(expect.arrayContaining(['one', 'two']));
    expect(names).not.toContain('three');
  });
});
