/**
 * Real kubectl against the local control plane: RBAC decides every request, the kubeconfig token is
 * cluster-admin, `--as`/`--as-group` impersonate, and the persona ClusterRoles grant what
 * docs/rbac.md says.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Plane } from './control-plane-harness.js';
import { roleBindingArgs, startPlane } from './control-plane-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const keyManifest = (namespace: string, name: string): string =>
  [
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: ApiKey',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${namespace}`,
    'spec:',
    `  displayName: ${name}`,
    '',
  ].join('\n');

/** A user with its own bearer token (the static token file), not cluster-admin. */
const bobToken = 'bob-token-0123456789';

let plane: Plane;

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-a', 'team-b']) await plane.ok(['create', 'namespace', namespace]);
  await plane.ok(
    ['apply', '-f', '-'],
    keyManifest('team-a', 'a1') + '---\n' + keyManifest('team-b', 'b1'),
  );
  writeFileSync(
    join(plane.dataDirectory, 'tokens.csv'),
    `${bobToken},bob,bob-uid,"team-a-managers,platform"\n`,
  );
});

afterAll(async () => {
  await plane.stop();
});

describe('RBAC with kubectl', () => {
  it('answers kubectl auth can-i --as by the bindings (RoleBinding of a ClusterRole: one namespace)', async () => {
    const canI = (namespace: string) =>
      plane.kubectl(['auth', 'can-i', 'create', 'apikeys', '-n', namespace, '--as', 'alice']);
    const before = await canI('team-a');
    expect([before.code, before.stdout.trim()]).toEqual([1, 'no']);
    await plane.ok(
      roleBindingArgs({
        name: 'alice-keys',
        clusterRole: 'tollgate-key-manager',
        user: 'alice',
        namespace: 'team-a',
      }),
    );
    const after = await canI('team-a');
    expect([after.code, after.stdout.trim()]).toEqual([0, 'yes']);
    const elsewhere = await canI('team-b');
    expect([elsewhere.code, elsewhere.stdout.trim()]).toEqual([1, 'no']);
  });

  it('refuses a viewer kubectl create with the API server message', async () => {
    await plane.ok(
      roleBindingArgs({
        name: 'vera-view',
        clusterRole: 'tollgate-viewer',
        user: 'vera',
        namespace: 'team-a',
      }),
    );
    expect(await plane.ok(['--as', 'vera', 'get', 'apikeys', '-n', 'team-a', '-o', 'name'])).toBe(
      'apikey.tollgate.dev/a1\n',
    );
    const refused = await plane.kubectl(
      ['--as', 'vera', 'create', '-f', '-'],
      keyManifest('team-a', 'v1'),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": apikeys.tollgate.dev is forbidden: ' +
        'User "vera" cannot create resource "apikeys" in API group "tollgate.dev" in the namespace "team-a"',
    );
    const secrets = await plane.kubectl(['--as', 'vera', 'get', 'secrets', '-n', 'team-a']);
    expect(secrets.stderr).toContain('User "vera" cannot list resource "secrets" in API group ""');
  });

  it('keeps a key manager of team-a out of team-b', async () => {
    await plane.ok(
      roleBindingArgs({
        name: 'managers',
        clusterRole: 'tollgate-key-manager',
        group: 'team-a-managers',
        namespace: 'team-a',
      }),
    );
    const asManager = ['--as', 'mia', '--as-group', 'team-a-managers'];
    expect(await plane.ok([...asManager, 'get', 'apikeys', '-n', 'team-a', '-o', 'name'])).toBe(
      'apikey.tollgate.dev/a1\n',
    );
    const other = await plane.kubectl([...asManager, 'get', 'apikeys', '-n', 'team-b']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      'apikeys.tollgate.dev is forbidden: User "mia" cannot list resource "apikeys" in API group "tollgate.dev" in the namespace "team-b"',
    );
    const named = await plane.kubectl([...asManager, 'get', 'apikey', 'b1', '-n', 'team-b']);
    expect(named.stderr).toContain(
      'apikeys.tollgate.dev "b1" is forbidden: User "mia" cannot get resource',
    );
    await plane.ok([
      ...asManager,
      'annotate',
      'apikey',
      'a1',
      '-n',
      'team-a',
      'tollgate.dev/reset-quota=1',
    ]);
    await plane.ok([...asManager, 'delete', 'apikey', 'a1', '-n', 'team-a']);
  });

  it('lets a key manager create a Secret it then cannot read', async () => {
    const asManager = ['--as', 'mia', '--as-group', 'team-a-managers'];
    expect(
      await plane.ok([
        ...asManager,
        'create',
        'secret',
        'generic',
        'chosen-key',
        '-n',
        'team-a',
        '--from-literal=apiKey=sk-chosen-value-0123456789',
      ]),
    ).toContain('secret/chosen-key created');
    const read = await plane.kubectl([...asManager, 'get', 'secret', 'chosen-key', '-n', 'team-a']);
    expect(read.code).toBe(1);
    expect(read.stderr.trim()).toBe(
      'Error from server (Forbidden): secrets "chosen-key" is forbidden: User "mia" cannot get resource "secrets" in API group "" in the namespace "team-a"',
    );
    const list = await plane.kubectl([
      ...asManager,
      'get',
      'secrets',
      '-n',
      'team-a',
      '--watch',
      '--request-timeout=5s',
    ]);
    expect(list.stderr).toContain('cannot list resource "secrets"');
  });

  it('lets the kubeconfig token (cluster-admin) do everything', async () => {
    expect((await plane.ok(['auth', 'can-i', '*', '*', '--all-namespaces'])).trim()).toBe('yes');
    expect(await plane.ok(['get', 'secret', 'chosen-key', '-n', 'team-a', '-o', 'name'])).toBe(
      'secret/chosen-key\n',
    );
    await plane.ok(['create', 'clusterrole', 'scratch', '--verb=get', '--resource=secrets']);
    await plane.ok(['delete', 'clusterrole', 'scratch']);
    expect(
      await plane.ok([
        'auth',
        'whoami',
        '-o',
        'jsonpath={.status.userInfo.username} {.status.userInfo.groups}',
      ]),
    ).toBe('kubernetes-admin ["system:masters","system:authenticated"]');
  });

  it('grants cluster-wide through a ClusterRoleBinding', async () => {
    await plane.ok([
      'create',
      'clusterrolebinding',
      'auditor',
      '--clusterrole',
      'tollgate-viewer',
      '--user',
      'audrey',
    ]);
    expect(await plane.ok(['--as', 'audrey', 'get', 'apikeys', '-A', '-o', 'name'])).toBe(
      'apikey.tollgate.dev/b1\n',
    );
    expect(
      (await plane.ok(['auth', 'can-i', 'list', 'groups.tollgate.dev', '--as', 'audrey'])).trim(),
    ).toBe('yes');
    const write = await plane.kubectl([
      'auth',
      'can-i',
      'delete',
      'apikeys',
      '-n',
      'team-b',
      '--as',
      'audrey',
    ]);
    expect(write.stdout.trim()).toBe('no');
  });

  it('refuses impersonation to a requester that may not impersonate', async () => {
    const asBob = ['--token', bobToken];
    expect(
      await plane.ok([...asBob, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']),
    ).toBe('bob');
    expect(await plane.ok([...asBob, 'get', 'apikeys', '-n', 'team-a', '-o', 'name'])).toBe('');
    const refused = await plane.kubectl([...asBob, '--as', 'audrey', 'get', 'apikeys', '-A']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'users "audrey" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    await plane.ok([
      'create',
      'clusterrole',
      'impersonate-auditor',
      '--verb=impersonate',
      '--resource=users',
      '--resource-name=audrey',
    ]);
    await plane.ok([
      'create',
      'clusterrolebinding',
      'bob-impersonates',
      '--clusterrole',
      'impersonate-auditor',
      '--user',
      'bob',
    ]);
    expect(await plane.ok([...asBob, '--as', 'audrey', 'get', 'apikeys', '-A', '-o', 'name'])).toBe(
      'apikey.tollgate.dev/b1\n',
    );
    const group = await plane.kubectl([
      ...asBob,
      '--as',
      'audrey',
      '--as-group',
      'system:masters',
      'get',
      'secrets',
      '-A',
    ]);
    expect(group.stderr).toContain(
      'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group ""',
    );
  });

  it('refuses to let a user grant permissions it does not hold (escalation)', async () => {
    await plane.ok([
      'create',
      'role',
      'binder',
      '--verb=create,get,list',
      '--resource=rolebindings.rbac.authorization.k8s.io',
      '-n',
      'team-a',
    ]);
    await plane.ok(
      roleBindingArgs({ name: 'bob-binder', role: 'binder', user: 'bob', namespace: 'team-a' }),
    );
    const asBob = ['--token', bobToken];
    const escalate = await plane.kubectl([
      ...asBob,
      ...roleBindingArgs({
        name: 'bob-admin',
        clusterRole: 'tollgate-admin',
        user: 'bob',
        namespace: 'team-a',
      }),
    ]);
    expect(escalate.code).toBe(1);
    expect(escalate.stderr).toContain(
      'rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: user "bob" (groups=["team-a-managers" "platform" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["tollgate.dev"], Resources:["accounts"], Verbs:["create" "update" "patch" "delete" "deletecollection"]}',
    );
    // Bob holds the key manager's rights in team-a (group team-a-managers), so he may hand them on.
    await plane.ok([
      ...asBob,
      ...roleBindingArgs({
        name: 'carol-keys',
        clusterRole: 'tollgate-key-manager',
        user: 'carol',
        namespace: 'team-a',
      }),
    ]);
    expect(
      (
        await plane.ok(['auth', 'can-i', 'create', 'apikeys', '-n', 'team-a', '--as', 'carol'])
      ).trim(),
    ).toBe('yes');
  });
});
