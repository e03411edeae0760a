/** API server semantics: generation, optimistic concurrency, status, finalizers, GC, auth. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Plane } from './control-plane-harness.js';
import { apiRequest, startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

const keys = '/apis/tollgate.dev/v1alpha1/namespaces/default/apikeys';
const manifest = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'ApiKey',
  metadata: { name, ...extra },
  spec: { displayName: name },
});

interface Meta {
  generation?: number;
  resourceVersion: string;
  uid: string;
  deletionTimestamp?: string;
  finalizers?: string[];
}

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane();
});
afterAll(async () => {
  await plane.stop();
});

const meta = (body: Record<string, unknown>): Meta => body.metadata as Meta;

describe('object semantics', () => {
  it('bumps generation on spec changes only, not on status or metadata', async () => {
    const created = await apiRequest(plane.local, {
      method: 'POST',
      path: keys,
      body: manifest('gen'),
    });
    expect(created.status).toBe(201);
    expect(meta(created.body).generation).toBe(1);
    await plane.ok(['label', 'ak', 'gen', 'a=b']);
    await plane.ok([
      'patch',
      'ak',
      'gen',
      '--type',
      'merge',
      '--subresource',
      'status',
      '-p',
      '{"status":{"keyHint":"sk-...abcd"},"spec":{"displayName":"ignored"}}',
    ]);
    const afterStatus = await apiRequest(plane.local, { method: 'GET', path: `${keys}/gen` });
    expect(meta(afterStatus.body).generation).toBe(1);
    expect(afterStatus.body.status).toEqual({ keyHint: 'sk-...abcd' });
    expect((afterStatus.body.spec as { displayName: string }).displayName).toBe('gen');
    await plane.ok([
      'patch',
      'ak',
      'gen',
      '--type',
      'merge',
      '-p',
      '{"spec":{"displayName":"changed"},"status":{"keyHint":"ignored"}}',
    ]);
    const afterSpec = await apiRequest(plane.local, { method: 'GET', path: `${keys}/gen` });
    expect(meta(afterSpec.body).generation).toBe(2);
    expect(afterSpec.body.status).toEqual({ keyHint: 'sk-...abcd' });
    expect(Number(meta(afterSpec.body).resourceVersion)).toBeGreaterThan(
      Number(meta(afterStatus.body).resourceVersion),
    );
  });

  it('lets kubectl wait for a condition written through the status subresource', async () => {
    await apiRequest(plane.local, { method: 'POST', path: keys, body: manifest('waited') });
    const early = await plane.kubectl([
      'wait',
      '--for=condition=Ready',
      'ak/waited',
      '--timeout=1s',
    ]);
    expect(early.stderr).toContain('timed out waiting for the condition');
    const ready = {
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Active',
            message: 'ok',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    };
    await plane.ok([
      'patch',
      'ak',
      'waited',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify(ready),
    ]);
    const started = Date.now();
    expect(await plane.ok(['wait', '--for=condition=Ready', 'ak/waited', '--timeout=10s'])).toBe(
      'apikey.tollgate.dev/waited condition met\n',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const table = await plane.ok(['get', 'ak', 'waited']);
    expect(table).toMatch(/\nwaited\s+waited\s+True\s+Active\s+\d+s\n$/);
  });

  it('answers 409 Conflict to an update with a stale resourceVersion', async () => {
    const created = await apiRequest(plane.local, {
      method: 'POST',
      path: keys,
      body: manifest('occ'),
    });
    const stale = meta(created.body).resourceVersion;
    await plane.ok([
      'patch',
      'ak',
      'occ',
      '--type',
      'merge',
      '-p',
      '{"spec":{"displayName":"first"}}',
    ]);
    const body = {
      ...manifest('occ', { resourceVersion: stale }),
      spec: { displayName: 'second' },
    };
    const update = await apiRequest(plane.local, { method: 'PUT', path: `${keys}/occ`, body });
    expect(update.status).toBe(409);
    expect(update.body).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    const again = await apiRequest(plane.local, {
      method: 'POST',
      path: keys,
      body: manifest('occ'),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      reason: 'AlreadyExists',
      message: 'apikeys.tollgate.dev "occ" already exists',
    });
  });

  it('keeps an object with finalizers until the last finalizer is removed', async () => {
    await apiRequest(plane.local, {
      method: 'POST',
      path: keys,
      body: manifest('fin', { finalizers: ['tollgate.dev/finalizer'] }),
    });
    await plane.ok(['delete', 'ak', 'fin', '--wait=false']);
    const terminating = await apiRequest(plane.local, { method: 'GET', path: `${keys}/fin` });
    expect(meta(terminating.body).deletionTimestamp).toMatch(/Z$/);
    const patch = [{ op: 'replace', path: '/metadata/finalizers', value: [] }];
    await plane.ok(['patch', 'ak', 'fin', '--type', 'json', '-p', JSON.stringify(patch)]);
    const gone = await apiRequest(plane.local, { method: 'GET', path: `${keys}/fin` });
    expect(gone.status).toBe(404);
  });

  it('deletes Secrets owned by a deleted ApiKey, and objects of a deleted namespace', async () => {
    const owner = await apiRequest(plane.local, {
      method: 'POST',
      path: keys,
      body: manifest('owner'),
    });
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'owner-key',
        ownerReferences: [
          {
            apiVersion: 'tollgate.dev/v1alpha1',
            kind: 'ApiKey',
            name: 'owner',
            uid: meta(owner.body).uid,
          },
        ],
      },
      stringData: { apiKey: 'sk-tg-0123456789abcdef' },
    };
    const stored = await apiRequest(plane.local, {
      method: 'POST',
      path: '/api/v1/namespaces/default/secrets',
      body: secret,
    });
    expect(stored.body.data).toEqual({
      apiKey: Buffer.from('sk-tg-0123456789abcdef').toString('base64'),
    });
    expect(stored.body.stringData).toBeUndefined();
    await plane.ok(['delete', 'ak', 'owner']);
    expect((await plane.kubectl(['get', 'secret', 'owner-key'])).stderr).toContain('not found');

    const namespace = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: doomed}\n';
    await plane.ok(['apply', '-f', '-'], namespace);
    await plane.ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: doomed}\n',
    );
    await plane.ok(['delete', 'namespace', 'doomed']);
    await plane.ok(['apply', '-f', '-'], namespace);
    expect(await plane.ok(['get', 'secrets', '-n', 'doomed', '-o', 'name'])).toBe('');
  });

  it('accepts the protobuf bodies of kubectl create namespace and kubectl create secret', async () => {
    await plane.ok(['create', 'namespace', 'proto', '--dry-run=server']);
    expect((await plane.kubectl(['get', 'namespace', 'proto'])).code).not.toBe(0);
    expect(await plane.ok(['create', 'namespace', 'proto'])).toBe('namespace/proto created\n');
    await plane.ok([
      'create',
      'secret',
      'generic',
      'chosen',
      '-n',
      'proto',
      '--from-literal=apiKey=tg-chosen-value-0123456789',
      '--type=tollgate.dev/api-key',
    ]);
    await plane.ok(['label', 'secret', 'chosen', '-n', 'proto', 'tollgate.dev/api-key-name=k']);
    const secret = JSON.parse(
      await plane.ok(['get', 'secret', 'chosen', '-n', 'proto', '-o', 'json']),
    ) as {
      type: string;
      data: Record<string, string>;
      metadata: { namespace: string; labels: Record<string, string> };
    };
    expect(secret.type).toBe('tollgate.dev/api-key');
    expect(Buffer.from(secret.data.apiKey ?? '', 'base64').toString()).toBe(
      'tg-chosen-value-0123456789',
    );
    expect(secret.metadata).toMatchObject({
      namespace: 'proto',
      labels: { 'tollgate.dev/api-key-name': 'k' },
    });
    const table = await plane.ok(['get', 'secrets', '-n', 'proto']);
    expect(table).toMatch(
      /^NAME\s+TYPE\s+DATA\s+AGE\nchosen\s+tollgate\.dev\/api-key\s+1\s+\d+s\n$/,
    );
  });

  it('refuses requests without the token with a 401 Status', async () => {
    const anonymous = await apiRequest(plane.local, { method: 'GET', path: keys, token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const wrong = await apiRequest(plane.local, { method: 'GET', path: '/api', token: 'wrong' });
    expect(wrong.status).toBe(401);
  });

  it('does not store dry-run writes and refuses objects in a missing namespace', async () => {
    const dry = await plane.ok(
      ['apply', '--dry-run=server', '-f', '-'],
      'apiVersion: v1\nkind: Secret\nmetadata: {name: dry}\nstringData: {a: b}\n',
    );
    expect(dry).toContain('(server dry run)');
    expect((await plane.kubectl(['get', 'secret', 'dry'])).code).not.toBe(0);
    const missing = await apiRequest(plane.local, {
      method: 'POST',
      path: '/apis/tollgate.dev/v1alpha1/namespaces/nowhere/apikeys',
      body: manifest('x'),
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('namespaces "nowhere" not found');
  });
});
