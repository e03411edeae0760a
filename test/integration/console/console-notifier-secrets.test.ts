/**
 * The Secret the console writes for a notifier, against the local control plane with RBAC on: it
 * is labelled for notifiers (the operator reads no other Secret for a Notifier) and written before
 * the notifier names it; a create adds the owner reference once the notifier exists, when the user
 * may patch Secrets; a successful edit removes the Secret written before, a failed one removes the
 * new Secret and leaves the working one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  bindRole,
  bindUpstreamCredentials,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const users = [
  { username: 'alice', password: 'alice-password-1', groups: ['team-a-managers'] },
  { username: 'root', password: 'root-password-12', groups: ['platform'] },
];

interface SecretObject {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; uid: string }[];
  };
}
interface NotifierObject {
  metadata: { uid: string; generation: number };
  spec: { slack?: { webhookURLSecretRef: { name: string } } };
}

let plane: Plane;
let app: ConsoleApp;
let alice: Signed;
let root: Signed;

beforeAll(async () => {
  plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-a']);
  await bindRole(plane, 'a-managers', 'tollgate-key-manager', [
    '--group',
    'team-a-managers',
    '-n',
    'team-a',
  ]);
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  await bindUpstreamCredentials(plane);
  app = buildConsole(plane);
  alice = await signIn(app, users[0]!);
  root = await signIn(app, users[1]!);
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

async function json<T>(args: string[]): Promise<T> {
  return JSON.parse(await plane.ok(['get', ...args, '-o', 'json'])) as T;
}

async function notifierSecrets(namespace: string): Promise<SecretObject[]> {
  const list = await json<{ items: SecretObject[] }>(['secrets', '-n', namespace]);
  return list.items.filter((secret) => secret.metadata.name.includes('-notifier-'));
}

const slack = (value: string) => ({
  spec: { slack: {}, events: { keyExpiring: { withinDays: 3 } } },
  secretValue: `https://hooks.slack.example/services/T0/B0/${value}`,
});

describe('a ClusterNotifier written by an administrator who may manage its Secrets', () => {
  it('gets a labelled Secret it owns; an edit replaces it, a failed edit keeps it', async () => {
    const created = await call(app, root, {
      method: 'POST',
      url: '/api/v1/admin/clusternotifiers',
      payload: { name: 'ops', ...slack('first') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = await json<NotifierObject>(['clusternotifier', 'ops']);
    const firstName = first.spec.slack?.webhookURLSecretRef.name ?? '';
    const [secret] = await notifierSecrets('tollgate-system');
    expect(secret?.metadata.name).toBe(firstName);
    expect(secret?.metadata.labels).toMatchObject({ 'tollgate.dev/notifier-secret': 'true' });
    expect(secret?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'ClusterNotifier', name: 'ops', uid: first.metadata.uid }),
    ]);

    const edited = await call(app, root, {
      method: 'PUT',
      url: '/api/v1/admin/clusternotifiers/ops',
      payload: { generation: first.metadata.generation, ...slack('second') },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const second = await json<NotifierObject>(['clusternotifier', 'ops']);
    const secondName = second.spec.slack?.webhookURLSecretRef.name ?? '';
    expect(secondName).not.toBe(firstName);
    const afterEdit = await notifierSecrets('tollgate-system');
    // The previous Secret is gone; the new one is labelled and owned.
    expect(afterEdit.map((each) => each.metadata.name)).toEqual([secondName]);
    expect(afterEdit[0]?.metadata.labels?.['tollgate.dev/notifier-secret']).toBe('true');
    expect(afterEdit[0]?.metadata.ownerReferences?.[0]?.uid).toBe(first.metadata.uid);

    // Edited from a stale generation: refused, the notifier still reads its working Secret.
    const stale = await call(app, root, {
      method: 'PUT',
      url: '/api/v1/admin/clusternotifiers/ops',
      payload: { generation: first.metadata.generation, ...slack('third') },
    });
    expect(stale.statusCode, stale.body).toBe(409);
    const kept = await json<NotifierObject>(['clusternotifier', 'ops']);
    expect(kept.spec.slack?.webhookURLSecretRef.name).toBe(secondName);
    expect((await notifierSecrets('tollgate-system')).map((each) => each.metadata.name)).toEqual([
      secondName,
    ]);
  });

  it('leaves no Secret behind when the notifier is refused', async () => {
    const refused = await call(app, root, {
      method: 'POST',
      url: '/api/v1/admin/clusternotifiers',
      payload: { name: 'ops', ...slack('again') },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await notifierSecrets('tollgate-system')).toHaveLength(1);
  });
});

describe('a Notifier written by a key manager (who may create Secrets only)', () => {
  it('names a Secret labelled for notifiers, which the operator accepts', async () => {
    const created = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/notifiers',
      payload: { name: 'alerts', ...slack('team') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const notifier = await json<NotifierObject>(['notifier', 'alerts', '-n', 'team-a']);
    const [secret] = await notifierSecrets('team-a');
    expect(secret?.metadata.name).toBe(notifier.spec.slack?.webhookURLSecretRef.name);
    expect(secret?.metadata.labels?.['tollgate.dev/notifier-secret']).toBe('true');
  });
});
