/**
 * Real kubectl against the local control plane: the RBAC kinds as objects (discovery, columns,
 * validation, persistence, the bootstrap roles at every start) and the access reviews.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { Plane } from './control-plane-harness.js';
import { apiRequest, roleBindingArgs, startPlane } from './control-plane-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const personas = [
  'tollgate-admin',
  'tollgate-capture-reader',
  'tollgate-group-reader',
  'tollgate-key-manager',
  'tollgate-upstream-credentials',
  'tollgate-viewer',
];

interface Review {
  status: { allowed: boolean; reason?: string };
}

let plane: Plane;

beforeAll(async () => {
  plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-a']);
  await plane.ok(
    roleBindingArgs({
      name: 'managers',
      clusterRole: 'tollgate-key-manager',
      group: 'team-a-managers',
      namespace: 'team-a',
    }),
  );
});

afterAll(async () => {
  await plane.stop();
});

describe('RBAC objects', () => {
  it('has the persona ClusterRoles from the start, as in crds/rbac', async () => {
    const table = await plane.ok(['get', 'clusterroles']);
    expect(table.split('\n')[0]?.split(/\s{2,}/)).toEqual(['NAME', 'CREATED AT']);
    expect(table).toMatch(/tollgate-viewer\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    const names = (await plane.ok(['get', 'clusterroles', '-o', 'name'])).trim().split('\n');
    for (const persona of personas)
      expect(names).toContain(`clusterrole.rbac.authorization.k8s.io/${persona}`);
    const manifests = parseAllDocuments(
      readFileSync(
        new URL('../../../crds/rbac/tollgate-cluster-roles.yaml', import.meta.url),
        'utf8',
      ),
    ).map((document) => document.toJS() as { metadata: { name: string }; rules: unknown });
    for (const manifest of manifests) {
      const served = parse(
        await plane.ok(['get', 'clusterrole', manifest.metadata.name, '-o', 'yaml']),
      ) as {
        rules: unknown;
      };
      expect(served.rules).toEqual(manifest.rules);
    }
  });

  it('serves discovery for rbac.authorization.k8s.io and the create-only reviews', async () => {
    const rbac = await plane.ok([
      'api-resources',
      '--api-group=rbac.authorization.k8s.io',
      '-o',
      'wide',
      '--no-headers',
    ]);
    expect(
      rbac
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles']);
    const reviews = await plane.ok([
      'api-resources',
      '--api-group=authorization.k8s.io',
      '-o',
      'wide',
      '--no-headers',
    ]);
    expect(reviews).toMatch(
      /selfsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+false\s+SelfSubjectAccessReview\s+create/,
    );
    expect(reviews).toMatch(/localsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+true/);
  });

  it('prints bindings with the role and, wide, the subjects', async () => {
    const wide = await plane.ok(['get', 'rolebindings', '-n', 'team-a', '-o', 'wide']);
    const [header, row] = wide.trim().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'NAME',
      'ROLE',
      'AGE',
      'USERS',
      'GROUPS',
      'SERVICEACCOUNTS',
    ]);
    expect(row).toMatch(
      /^managers\s+ClusterRole\/tollgate-key-manager\s+\S+\s+team-a-managers\s*$/,
    );
  });

  it('applies a changed ClusterRole with kubectl apply (a strategic merge patch)', async () => {
    const role = (verbs: string): string =>
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRole',
        'metadata: {name: applied}',
        `rules: [{apiGroups: [tollgate.dev], resources: [apikeys], verbs: [${verbs}]}]`,
        '',
      ].join('\n');
    expect(await plane.ok(['apply', '-f', '-'], role('get'))).toContain('created');
    expect(await plane.ok(['apply', '-f', '-'], role('get, list'))).toContain('configured');
    expect(await plane.ok(['apply', '-f', '-'], role('get, list'))).toContain('unchanged');
    expect(
      await plane.ok(['get', 'clusterrole', 'applied', '-o', 'jsonpath={.rules[0].verbs}']),
    ).toBe('["get","list"]');
  });

  it('validates roles and bindings as the API server does', async () => {
    const badRef = await plane.kubectl(
      ['apply', '-f', '-'],
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRoleBinding',
        'metadata: {name: bad-ref}',
        'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: x}',
        'subjects: [{kind: User, name: alice}]',
        '',
      ].join('\n'),
    );
    expect(badRef.stderr).toContain(
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    );
    const noVerbs = await plane.kubectl(
      ['apply', '-f', '-'],
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: Role',
        'metadata: {name: no-verbs, namespace: team-a}',
        'rules: [{apiGroups: [""], resources: [secrets], verbs: []}, {nonResourceURLs: ["/x"], verbs: [get]}]',
        '',
      ].join('\n'),
    );
    expect(noVerbs.stderr).toContain(
      'rules[0].verbs: Required value: verbs must contain at least one value',
    );
    expect(noVerbs.stderr).toContain(
      'rules[1].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    );
    const change = await plane.kubectl([
      'patch',
      'rolebinding',
      'managers',
      '-n',
      'team-a',
      '--type=merge',
      '-p',
      '{"roleRef":{"name":"tollgate-viewer"}}',
    ]);
    expect(change.stderr).toContain('cannot change roleRef');
  });

  it('keeps bindings across a restart and restores the bootstrap rules unless autoupdate is off', async () => {
    await plane.ok([
      'patch',
      'clusterrole',
      'tollgate-viewer',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/rules/1"}]',
    ]);
    await plane.ok([
      'patch',
      'clusterrole',
      'tollgate-group-reader',
      '--type=merge',
      '-p',
      '{"metadata":{"annotations":{"rbac.authorization.kubernetes.io/autoupdate":"false"}},"rules":[{"apiGroups":["tollgate.dev"],"resources":["groups"],"verbs":["get"]}]}',
    ]);
    await plane.restart();
    expect(
      await plane.ok([
        'get',
        'clusterrole',
        'tollgate-viewer',
        '-o',
        'jsonpath={.rules[*].resources}',
      ]),
      // The removed rule is back (a restored rule goes after the ones kept).
    ).toContain('["groups","plans"]');
    expect(
      await plane.ok([
        'get',
        'clusterrole',
        'tollgate-group-reader',
        '-o',
        'jsonpath={.rules[0].verbs}',
      ]),
    ).toBe('["get"]');
    expect(
      (
        await plane.ok([
          'auth',
          'can-i',
          'create',
          'apikeys',
          '-n',
          'team-a',
          '--as',
          'm',
          '--as-group',
          'team-a-managers',
        ])
      ).trim(),
    ).toBe('yes');
  });

  it('deletes a collection (deletecollection), a verb the key manager does not hold', async () => {
    await plane.ok(['create', 'secret', 'generic', 'one', '-n', 'team-a', '--from-literal=a=b']);
    await plane.ok(['label', 'secret', 'one', '-n', 'team-a', 'batch=x']);
    const deleted = await apiRequest(plane.local, {
      method: 'DELETE',
      path: '/api/v1/namespaces/team-a/secrets?labelSelector=batch%3Dx',
    });
    expect([deleted.status, (deleted.body.items as unknown[]).length]).toEqual([200, 1]);
    const canI = await plane.kubectl([
      'auth',
      'can-i',
      'deletecollection',
      'apikeys',
      '-n',
      'team-a',
      '--as',
      'm',
      '--as-group',
      'team-a-managers',
    ]);
    expect(canI.stdout.trim()).toBe('no');
  });
});

describe('access reviews', () => {
  const review = (spec: string): string =>
    ['apiVersion: authorization.k8s.io/v1', 'kind: SubjectAccessReview', 'spec:', spec, ''].join(
      '\n',
    );

  it('answers a SubjectAccessReview for a given user and groups, exactly as given', async () => {
    const attributes =
      '  resourceAttributes: {namespace: team-a, verb: create, group: tollgate.dev, resource: apikeys}';
    const allowed = JSON.parse(
      await plane.ok(
        ['create', '-o', 'json', '-f', '-'],
        review(`  user: dana\n  groups: [team-a-managers]\n${attributes}`),
      ),
    ) as Review;
    expect(allowed.status).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "managers/team-a" of ClusterRole "tollgate-key-manager" to Group "team-a-managers"',
    });
    const denied = JSON.parse(
      await plane.ok(
        ['create', '-o', 'json', '-f', '-'],
        review(`  user: dana\n  groups: [team-b-managers]\n${attributes}`),
      ),
    ) as Review;
    expect(denied.status).toEqual({ allowed: false });
    const nobody = await plane.kubectl(['create', '-f', '-'], review(attributes));
    expect(nobody.stderr).toContain(
      'spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });

  it('evaluates the captures subresource: the capture reader and the admin, not the key manager', async () => {
    await plane.ok(
      roleBindingArgs({
        name: 'capture-readers',
        clusterRole: 'tollgate-capture-reader',
        group: 'team-a-auditors',
        namespace: 'team-a',
      }),
    );
    await plane.ok(
      roleBindingArgs({
        name: 'admins',
        clusterRole: 'tollgate-admin',
        group: 'team-a-admins',
        namespace: 'team-a',
      }),
    );
    const canRead = async (group: string, name = 'ci-key') => {
      const answer = await plane.kubectl([
        ...['--as', 'erin', '--as-group', group, 'auth', 'can-i', 'get'],
        ...[`apikeys.tollgate.dev/${name}`, '--subresource', 'captures', '-n', 'team-a'],
      ]);
      return answer.stdout.trim();
    };
    expect(await canRead('team-a-auditors')).toBe('yes');
    expect(await canRead('team-a-admins')).toBe('yes');
    expect(await canRead('team-a-managers')).toBe('no');
    // The subresource is its own resource: the key manager's rights on apikeys do not reach it,
    // and the capture reader's right on it does not reach the keys.
    const readKeys = await plane.kubectl([
      ...['--as', 'erin', '--as-group', 'team-a-auditors', 'auth', 'can-i', 'get'],
      ...['apikeys.tollgate.dev', '-n', 'team-a'],
    ]);
    expect(readKeys.stdout.trim()).toBe('no');
  });

  it('refuses SubjectAccessReviews to a user without the right to create them', async () => {
    const refused = await plane.kubectl(
      ['--as', 'dana', '--as-group', 'team-a-managers', 'create', '-f', '-'],
      review('  user: x\n  nonResourceAttributes: {path: /version, verb: get}'),
    );
    expect(refused.stderr).toContain(
      'subjectaccessreviews.authorization.k8s.io is forbidden: User "dana" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
  });

  it('answers a LocalSubjectAccessReview in its namespace', async () => {
    const local = await apiRequest(plane.local, {
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/namespaces/team-a/localsubjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'LocalSubjectAccessReview',
        spec: {
          groups: ['team-a-managers'],
          resourceAttributes: { verb: 'get', resource: 'secrets' },
        },
      },
    });
    expect([local.status, local.body.status]).toEqual([201, { allowed: false }]);
  });

  it('lists the rules of the impersonated user (kubectl auth can-i --list)', async () => {
    const list = await plane.ok([
      'auth',
      'can-i',
      '--list',
      '-n',
      'team-a',
      '--as',
      'm',
      '--as-group',
      'team-a-managers',
    ]);
    expect(list.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'Resources',
      'Non-Resource URLs',
      'Resource Names',
      'Verbs',
    ]);
    expect(list).toMatch(
      /^apikeys\.tollgate\.dev\s+\[\]\s+\[\]\s+\[get list watch create update patch delete\]$/m,
    );
    expect(list).toMatch(/^secrets\s+\[\]\s+\[\]\s+\[create\]$/m);
    const subresource = await plane.kubectl([
      'auth',
      'can-i',
      'update',
      'apikeys',
      '--subresource=status',
      '-n',
      'team-a',
      '--as',
      'm',
      '--as-group',
      'team-a-managers',
    ]);
    expect(subresource.stdout.trim()).toBe('no');
  });
});
