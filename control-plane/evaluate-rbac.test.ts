import { describe, expect, it } from 'vitest';
import type { PolicyRule, RbacObjects } from './evaluate-rbac.js';
import { authorizeRbac, ruleAllows, rulesFor } from './evaluate-rbac.js';
import type { KubeObject } from './kube-object.js';
import type { RequestAttributes, UserInfo } from './request-attributes.js';

function rule(fields: Partial<PolicyRule>): PolicyRule {
  return {
    verbs: [],
    apiGroups: [],
    resources: [],
    resourceNames: [],
    nonResourceURLs: [],
    ...fields,
  };
}

function resource(
  fields: Partial<Omit<RequestAttributes & { resourceRequest: true }, 'resourceRequest'>>,
): RequestAttributes {
  return {
    resourceRequest: true,
    verb: 'get',
    apiGroup: 'tollgate.dev',
    apiVersion: 'v1alpha1',
    namespace: 'team-a',
    resource: 'apikeys',
    subresource: '',
    name: '',
    ...fields,
  };
}

const user = (name: string, groups: string[] = []): UserInfo => ({
  name,
  uid: '',
  groups,
  extra: {},
});

function objects(content: { roles?: KubeObject[]; bindings?: KubeObject[] }): RbacObjects {
  const roles = content.roles ?? [];
  const bindings = content.bindings ?? [];
  const find = (kind: string, namespace: string | undefined, name: string) =>
    roles.find(
      (role) =>
        role.kind === kind && role.metadata.name === name && role.metadata.namespace === namespace,
    );
  return {
    clusterRoleBindings: () => bindings.filter((binding) => binding.kind === 'ClusterRoleBinding'),
    roleBindings: (namespace) =>
      bindings.filter(
        (binding) => binding.kind === 'RoleBinding' && binding.metadata.namespace === namespace,
      ),
    clusterRole: (name) => find('ClusterRole', undefined, name),
    role: (namespace, name) => find('Role', namespace, name),
  };
}

function binding(
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  spec: {
    name: string;
    namespace?: string;
    role: string;
    roleKind?: string;
    subjects: KubeObject['metadata'][];
  },
): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata:
      spec.namespace === undefined
        ? { name: spec.name }
        : { name: spec.name, namespace: spec.namespace },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: spec.roleKind ?? 'ClusterRole',
      name: spec.role,
    },
    subjects: spec.subjects,
  };
}

const keyReader: KubeObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'key-reader' },
  rules: [{ verbs: ['get', 'list'], apiGroups: ['tollgate.dev'], resources: ['apikeys'] }],
};

describe('RBAC rule matching (evaluation_helpers.go)', () => {
  it('matches verbs, groups and resources exactly or by *', () => {
    const exact = rule({ verbs: ['get'], apiGroups: ['tollgate.dev'], resources: ['apikeys'] });
    expect(ruleAllows(resource({}), exact)).toBe(true);
    expect(ruleAllows(resource({ verb: 'list' }), exact)).toBe(false);
    expect(ruleAllows(resource({ apiGroup: '' }), exact)).toBe(false);
    expect(
      ruleAllows(
        resource({ verb: 'delete', resource: 'groups' }),
        rule({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }),
      ),
    ).toBe(true);
  });

  it('needs the subresource named, or */subresource', () => {
    const status = resource({ subresource: 'status', verb: 'update' });
    expect(
      ruleAllows(status, rule({ verbs: ['update'], apiGroups: ['*'], resources: ['apikeys'] })),
    ).toBe(false);
    expect(
      ruleAllows(
        status,
        rule({ verbs: ['update'], apiGroups: ['*'], resources: ['apikeys/status'] }),
      ),
    ).toBe(true);
    expect(
      ruleAllows(status, rule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] })),
    ).toBe(true);
    expect(
      ruleAllows(status, rule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] })),
    ).toBe(false);
  });

  it('limits by resourceNames (a list has no name, so it is not allowed)', () => {
    const named = rule({
      verbs: ['get', 'list'],
      apiGroups: ['*'],
      resources: ['apikeys'],
      resourceNames: ['k1'],
    });
    expect(ruleAllows(resource({ name: 'k1' }), named)).toBe(true);
    expect(ruleAllows(resource({ name: 'k2' }), named)).toBe(false);
    expect(ruleAllows(resource({ verb: 'list' }), named)).toBe(false);
  });

  it('matches non-resource URLs exactly or by a trailing *', () => {
    const urls = rule({ verbs: ['get'], nonResourceURLs: ['/apis/*', '/version'] });
    expect(
      ruleAllows({ resourceRequest: false, verb: 'get', path: '/apis/tollgate.dev' }, urls),
    ).toBe(true);
    expect(ruleAllows({ resourceRequest: false, verb: 'get', path: '/version' }, urls)).toBe(true);
    expect(ruleAllows({ resourceRequest: false, verb: 'get', path: '/versions' }, urls)).toBe(
      false,
    );
    expect(ruleAllows({ resourceRequest: false, verb: 'post', path: '/version' }, urls)).toBe(
      false,
    );
  });
});

describe('RBAC bindings (rule.go)', () => {
  const policy = objects({
    roles: [keyReader],
    bindings: [
      binding('RoleBinding', {
        name: 'readers',
        namespace: 'team-a',
        role: 'key-reader',
        subjects: [{ kind: 'Group', name: 'team-a' }],
      }),
      binding('RoleBinding', {
        name: 'robot',
        namespace: 'team-a',
        role: 'key-reader',
        subjects: [{ kind: 'ServiceAccount', name: 'ci' }],
      }),
      binding('ClusterRoleBinding', {
        name: 'auditors',
        role: 'key-reader',
        subjects: [{ kind: 'User', name: 'audit' }],
      }),
      binding('RoleBinding', {
        name: 'broken',
        namespace: 'team-b',
        role: 'gone',
        subjects: [{ kind: 'User', name: 'bob' }],
      }),
    ],
  });

  it('a RoleBinding allows in its namespace only', () => {
    expect(
      authorizeRbac(policy, { user: user('alice', ['team-a']), attributes: resource({}) }),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "readers/team-a" of ClusterRole "key-reader" to Group "team-a"',
    });
    expect(
      authorizeRbac(policy, {
        user: user('alice', ['team-a']),
        attributes: resource({ namespace: 'team-b' }),
      }).allowed,
    ).toBe(false);
  });

  it('a ClusterRoleBinding allows everywhere', () => {
    expect(
      authorizeRbac(policy, { user: user('audit'), attributes: resource({ namespace: 'team-z' }) })
        .reason,
    ).toBe(
      'RBAC: allowed by ClusterRoleBinding "auditors" of ClusterRole "key-reader" to User "audit"',
    );
  });

  it('a ServiceAccount subject without namespace means the binding namespace', () => {
    const robot = user('system:serviceaccount:team-a:ci');
    expect(authorizeRbac(policy, { user: robot, attributes: resource({}) }).allowed).toBe(true);
    expect(
      authorizeRbac(policy, {
        user: user('system:serviceaccount:team-b:ci'),
        attributes: resource({}),
      }).allowed,
    ).toBe(false);
  });

  it('a binding to a missing role gives the reason the API server gives', () => {
    expect(
      authorizeRbac(policy, { user: user('bob'), attributes: resource({ namespace: 'team-b' }) }),
    ).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });

  it('lists the rules of a user in a namespace', () => {
    expect(
      rulesFor(policy, { user: user('alice', ['team-a']), namespace: 'team-a' }).rules,
    ).toHaveLength(1);
    expect(
      rulesFor(policy, { user: user('alice', ['team-a']), namespace: 'team-b' }).rules,
    ).toHaveLength(0);
  });
});
