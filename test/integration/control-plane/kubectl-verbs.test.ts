/** Real kubectl against the local control plane: every verb on every kind. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { Plane } from './control-plane-harness.js';
import { runKubectl, startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

interface KindCase {
  kind: string;
  resource: string;
  namespace?: string;
  manifest: string;
  /** Header words of `kubectl get` (printer columns). */
  columns: string[];
  mergePatch: string;
  /** A path the JSON patch replaces, and the value it sets. */
  jsonPatch: { path: string; value: string };
  read: (object: Record<string, unknown>) => unknown;
}

const cases: KindCase[] = [
  {
    kind: 'Namespace',
    resource: 'namespace',
    manifest: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: verbs-ns\n',
    columns: ['NAME', 'STATUS', 'AGE'],
    mergePatch: '{"metadata":{"labels":{"team":"merge"}}}',
    jsonPatch: { path: '/metadata/labels/team', value: 'json' },
    read: (o) => (o.metadata as { labels?: Record<string, string> }).labels?.team,
  },
  {
    kind: 'Secret',
    resource: 'secret',
    namespace: 'default',
    manifest:
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: verbs-secret\n  labels: {team: start}\ndata:\n  k: dg==\n',
    columns: ['NAME', 'TYPE', 'DATA', 'AGE'],
    mergePatch: '{"metadata":{"labels":{"team":"merge"}}}',
    jsonPatch: { path: '/metadata/labels/team', value: 'json' },
    read: (o) => (o.metadata as { labels?: Record<string, string> }).labels?.team,
  },
  {
    kind: 'Lease',
    resource: 'lease',
    namespace: 'tollgate-system',
    manifest:
      'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: verbs-lease\nspec:\n  holderIdentity: start\n',
    columns: ['NAME', 'HOLDER', 'AGE'],
    mergePatch: '{"spec":{"holderIdentity":"merge"}}',
    jsonPatch: { path: '/spec/holderIdentity', value: 'json' },
    read: (o) => (o.spec as { holderIdentity?: string }).holderIdentity,
  },
  {
    kind: 'ApiKey',
    resource: 'apikey',
    namespace: 'default',
    manifest:
      'apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata:\n  name: verbs-key\nspec:\n  displayName: start\n  groupName: g\n',
    columns: ['NAME', 'DISPLAY NAME', 'GROUP', 'READY', 'REASON', 'USED', 'AGE'],
    mergePatch: '{"spec":{"displayName":"merge"}}',
    jsonPatch: { path: '/spec/displayName', value: 'json' },
    read: (o) => (o.spec as { displayName?: string }).displayName,
  },
  {
    kind: 'Group',
    resource: 'group.tollgate.dev',
    manifest:
      'apiVersion: tollgate.dev/v1alpha1\nkind: Group\nmetadata:\n  name: verbs-group\nspec:\n  platform: Gemini\n  description: start\n',
    columns: ['NAME', 'PLATFORM', 'MULTIPLIER', 'READY', 'AGE'],
    mergePatch: '{"spec":{"description":"merge"}}',
    jsonPatch: { path: '/spec/description', value: 'json' },
    read: (o) => (o.spec as { description?: string }).description,
  },
  {
    kind: 'Upstream',
    resource: 'upstream',
    manifest: [
      'apiVersion: tollgate.dev/v1alpha1',
      'kind: Upstream',
      'metadata:\n  name: verbs-upstream',
      'spec:\n  platform: OpenAI\n  baseURL: http://127.0.0.1:8090',
      '  credentials: {type: APIKey, apiKey: {secretRef: {name: s, key: k}}}\n',
    ].join('\n'),
    columns: ['NAME', 'PLATFORM', 'AVAILABLE', 'REASON', 'AGE'],
    mergePatch: '{"spec":{"baseURL":"http://127.0.0.1:1/merge"}}',
    jsonPatch: { path: '/spec/baseURL', value: 'http://127.0.0.1:1/json' },
    read: (o) => (o.spec as { baseURL?: string }).baseURL,
  },
  {
    kind: 'Account',
    resource: 'account',
    namespace: 'default',
    manifest:
      'apiVersion: tollgate.dev/v1alpha1\nkind: Account\nmetadata:\n  name: default\nspec:\n  displayName: start\n  creditUSD: "5"\n',
    columns: ['NAME', 'DISPLAY NAME', 'CREDIT', 'SPENT', 'BALANCE', 'READY', 'AGE'],
    mergePatch: '{"spec":{"displayName":"merge"}}',
    jsonPatch: { path: '/spec/displayName', value: 'json' },
    read: (o) => (o.spec as { displayName?: string }).displayName,
  },
];

function nameOf(manifest: string): string {
  return (parse(manifest) as { metadata: { name: string } }).metadata.name;
}

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane();
});
afterAll(async () => {
  await plane.stop();
});

describe.each(cases)('kubectl on $kind', (kindCase) => {
  const name = nameOf(kindCase.manifest);
  const scope = kindCase.namespace === undefined ? [] : ['-n', kindCase.namespace];
  const object = async (): Promise<Record<string, unknown>> =>
    JSON.parse(await plane.ok(['get', kindCase.resource, name, ...scope, '-o', 'json'])) as Record<
      string,
      unknown
    >;

  it('applies, re-applies unchanged, gets with columns, yaml and describe', async () => {
    const first = await plane.ok(['apply', ...scope, '-f', '-'], kindCase.manifest);
    expect(first).toMatch(/ created\n$/);
    const second = await plane.ok(['apply', ...scope, '-f', '-'], kindCase.manifest);
    expect(second).toMatch(/ unchanged\n$/);
    const table = await plane.ok(['get', kindCase.resource, name, ...scope]);
    const header = table.split('\n')[0] ?? '';
    for (const column of kindCase.columns) expect(header).toContain(column);
    expect(table.split('\n')[1]).toMatch(new RegExp(`^${name}\\s`));
    const yamlText = await plane.ok(['get', kindCase.resource, name, ...scope, '-o', 'yaml']);
    const parsed = parse(yamlText) as { kind: string; metadata: Record<string, unknown> };
    expect(parsed.kind).toBe(kindCase.kind);
    expect(parsed.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(parsed.metadata.resourceVersion)).toBeGreaterThan(0);
    const described = await plane.ok(['describe', kindCase.resource, name, ...scope]);
    expect(described).toMatch(new RegExp(`Name:\\s+${name}`));
  });

  it('patches with merge and json patches, replaces, then deletes', async () => {
    await plane.ok([
      'patch',
      kindCase.resource,
      name,
      ...scope,
      '--type',
      'merge',
      '-p',
      kindCase.mergePatch,
    ]);
    expect(String(kindCase.read(await object()))).toMatch(/merge$/);
    const operations = JSON.stringify([{ op: 'replace', ...kindCase.jsonPatch }]);
    await plane.ok([
      'patch',
      kindCase.resource,
      name,
      ...scope,
      '--type',
      'json',
      '-p',
      operations,
    ]);
    expect(kindCase.read(await object())).toBe(kindCase.jsonPatch.value);

    const current = await object();
    const replaced = await plane.ok(
      ['replace', ...scope, '-f', '-'],
      JSON.stringify(current).replace(
        JSON.stringify(kindCase.jsonPatch.value),
        JSON.stringify(kindCase.kind === 'Upstream' ? 'http://127.0.0.1:1/replaced' : 'replaced'),
      ),
    );
    expect(replaced).toMatch(/ replaced\n$/);
    expect(String(kindCase.read(await object()))).toMatch(/replaced$/);

    const deleted = await plane.ok(['delete', kindCase.resource, name, ...scope]);
    expect(deleted).toMatch(/ deleted/);
    const gone = await plane.kubectl(['get', kindCase.resource, name, ...scope]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/NotFound|not found/);
  });
});

describe('kubectl edit', () => {
  it('saves an edited object (the editor is sed) and bumps its generation', async () => {
    const manifest = cases.find((item) => item.kind === 'ApiKey')?.manifest ?? '';
    await plane.ok(['apply', '-f', '-'], manifest.replace('verbs-key', 'edited-key'));
    const edited = await runKubectl(plane.local.kubeconfigPath, {
      args: ['edit', 'ak', 'edited-key'],
      cacheDirectory: `${plane.dataDirectory}/kubectl-cache`,
      environment: { EDITOR: 'sed -i s/displayName:\\ start/displayName:\\ by-editor/' },
    });
    expect(edited.stdout).toBe('apikey.tollgate.dev/edited-key edited\n');
    const object = parse(await plane.ok(['get', 'ak', 'edited-key', '-o', 'yaml'])) as {
      metadata: { generation: number };
      spec: { displayName: string };
    };
    expect(object.spec.displayName).toBe('by-editor');
    expect(object.metadata.generation).toBe(2);
    await plane.ok(['delete', 'ak', 'edited-key']);
  });
});

describe('kubectl apply --server-side', () => {
  it('creates, then merges the applied fields into the object', async () => {
    const manifest = (displayName: string): string =>
      `apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata: {name: ssa}\nspec: {displayName: ${displayName}}\n`;
    expect(await plane.ok(['apply', '--server-side', '-f', '-'], manifest('one'))).toBe(
      'apikey.tollgate.dev/ssa serverside-applied\n',
    );
    await plane.ok(['apply', '--server-side', '-f', '-'], manifest('two'));
    const object = parse(await plane.ok(['get', 'ak', 'ssa', '-o', 'yaml'])) as {
      metadata: { generation: number };
      spec: { displayName: string };
    };
    expect(object.spec.displayName).toBe('two');
    expect(object.metadata.generation).toBe(2);
    const invalid = await plane.kubectl(
      ['apply', '--server-side', '-f', '-'],
      manifest('"' + 'x'.repeat(201) + '"'),
    );
    expect(invalid.stderr).toContain('spec.displayName: Too long');
    await plane.ok(['delete', 'ak', 'ssa']);
  });
});

describe('the examples folder', () => {
  it('applies cleanly, twice, and lists the keys with their columns', async () => {
    const first = await plane.ok(['apply', '-f', 'examples/']);
    expect(first).not.toMatch(/error/i);
    const second = await plane.ok(['apply', '-f', 'examples/']);
    for (const line of second.trim().split('\n')) expect(line).toMatch(/ unchanged$/);
    const keys = await plane.ok(['get', 'apikeys', '-A']);
    const lines = keys.trim().split('\n');
    expect(lines[0]).toMatch(
      /^NAMESPACE\s+NAME\s+DISPLAY NAME\s+GROUP\s+READY\s+REASON\s+USED\s+AGE$/,
    );
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'team-a alice',
      'team-a bob',
      'team-a ci',
      'team-a ide',
      'team-a paused',
    ]);
    const wide = await plane.ok(['get', 'ak', '-n', 'team-a', '-o', 'wide']);
    expect(wide.split('\n')[0]).toContain('EXPIRES');
    const all = await plane.ok(['get', 'tollgate', '-A']);
    expect(all).toContain('upstream.tollgate.dev/antigravity-sim');
    expect(all).toContain('account.tollgate.dev/default');
  });
});
